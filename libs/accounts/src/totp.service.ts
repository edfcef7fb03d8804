import { Injectable } from '@nestjs/common';
import { BadRequestError, ConflictError } from '@cairn/common';
import { EnvelopeEncryption, type FieldBinding, PLATFORM_SCOPE } from '@cairn/encryption';
import { Secret, TOTP } from 'otpauth';
import { type Account, AccountsRepository } from './accounts.repository';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30 s. */
const PERIOD = 30;
/** One step either side: a phone's clock a little off still signs in. */
const WINDOW = 1;

/**
 * Time-based one-time codes as a second factor, for tenant and platform-operator accounts alike.
 * The secret is sealed (@cairn/encryption) under the tenant's data key, or for a platform
 * account under the platform's own (PLATFORM_SCOPE). A code is spent once: its time step is recorded.
 */
@Injectable()
export class TotpFactor {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly encryption: EnvelopeEncryption,
  ) {}

  /** A fresh secret, pending until a code from it is confirmed; shown once, to be scanned. */
  async enrol(account: Account, label: string): Promise<{ secret: string; otpauthUrl: string }> {
    if (account.totpSecret)
      throw new ConflictError('A second factor is already enabled; disable it first', 'totp_enabled');
    const secret = new Secret({ size: 20 });
    await this.accounts.setPendingTotp(
      account.id,
      await this.encryption.encrypt(scopeOf(account), binding(account), secret.base32),
    );
    const totp = new TOTP({ issuer: 'Cairn', label, secret, period: PERIOD });
    return { secret: secret.base32, otpauthUrl: totp.toString() };
  }

  async confirm(account: Account, code: string): Promise<void> {
    if (!account.totpPending)
      throw new BadRequestError('No enrolment to confirm; start one first', undefined, 'totp_not_pending');
    const pending = await this.encryption.decryptText(scopeOf(account), binding(account), account.totpPending);
    const step = stepOf(pending, code);
    if (step === undefined || !(await this.accounts.enableTotp(account.id, step))) {
      throw new BadRequestError('The code does not match', undefined, 'totp_invalid');
    }
  }

  /** Whether `code` is a fresh code of the account's enabled secret (and spends it). */
  async verify(account: Account, code: string): Promise<boolean> {
    if (!account.totpSecret) return false;
    const secret = await this.encryption.decryptText(scopeOf(account), binding(account), account.totpSecret);
    const step = stepOf(secret, code);
    return step !== undefined && this.accounts.spendTotpStep(account.id, step);
  }

  async disable(account: Account, code: string): Promise<void> {
    if (!account.totpSecret) throw new BadRequestError('No second factor is enabled', undefined, 'totp_not_enabled');
    if (!(await this.verify(account, code)))
      throw new BadRequestError('The code does not match', undefined, 'totp_invalid');
    await this.accounts.disableTotp(account.id);
  }
}

/** Whose data key seals the secret: the account's tenant's, or the platform's for an operator. */
function scopeOf(account: Account): string {
  return account.tenantId ?? PLATFORM_SCOPE;
}

function binding(account: Account): FieldBinding {
  return { table: 'accounts', rowId: account.id, field: 'totp_secret' };
}

/** The time step `code` belongs to, or undefined when it matches none in the window. */
function stepOf(base32: string, code: string): number | undefined {
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(base32), period: PERIOD, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD }) + delta;
}
