import { Injectable } from '@nestjs/common';
import { BadRequestError, ConflictError } from '@cairn/common';
import { EnvelopeEncryption, type FieldBinding } from '@cairn/encryption';
import { Secret, TOTP } from 'otpauth';
import { type Account, AccountsRepository } from './accounts.repository';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30 s. */
const PERIOD = 30;
/** One step either side: a phone's clock a little off still signs in. */
const WINDOW = 1;

/**
 * Time-based one-time codes as a second factor. Tenant accounts only: the secret is sealed under
 * the tenant's data key (@cairn/encryption), and there is no platform-wide data key to seal a
 * platform operator's under (docs/sign-in.md). A code is spent once: its time step is recorded.
 */
@Injectable()
export class TotpFactor {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly encryption: EnvelopeEncryption,
  ) {}

  /** A fresh secret, pending until a code from it is confirmed; shown once, to be scanned. */
  async enrol(account: Account, label: string): Promise<{ secret: string; otpauthUrl: string }> {
    const tenantId = this.tenantOf(account);
    if (account.totpSecret)
      throw new ConflictError('A second factor is already enabled; disable it first', 'totp_enabled');
    const secret = new Secret({ size: 20 });
    await this.accounts.setPendingTotp(
      account.id,
      await this.encryption.encrypt(tenantId, binding(account), secret.base32),
    );
    const totp = new TOTP({ issuer: 'Cairn', label, secret, period: PERIOD });
    return { secret: secret.base32, otpauthUrl: totp.toString() };
  }

  async confirm(account: Account, code: string): Promise<void> {
    const tenantId = this.tenantOf(account);
    if (!account.totpPending)
      throw new BadRequestError('No enrolment to confirm; start one first', undefined, 'totp_not_pending');
    const step = stepOf(await this.encryption.decryptText(tenantId, binding(account), account.totpPending), code);
    if (step === undefined || !(await this.accounts.enableTotp(account.id, step))) {
      throw new BadRequestError('The code does not match', undefined, 'totp_invalid');
    }
  }

  /** Whether `code` is a fresh code of the account's enabled secret (and spends it). */
  async verify(account: Account, code: string): Promise<boolean> {
    if (!account.totpSecret || !account.tenantId) return false;
    const secret = await this.encryption.decryptText(account.tenantId, binding(account), account.totpSecret);
    const step = stepOf(secret, code);
    return step !== undefined && this.accounts.spendTotpStep(account.id, step);
  }

  async disable(account: Account, code: string): Promise<void> {
    this.tenantOf(account);
    if (!account.totpSecret) throw new BadRequestError('No second factor is enabled', undefined, 'totp_not_enabled');
    if (!(await this.verify(account, code)))
      throw new BadRequestError('The code does not match', undefined, 'totp_invalid');
    await this.accounts.disableTotp(account.id);
  }

  private tenantOf(account: Account): string {
    if (!account.tenantId) {
      throw new BadRequestError('A second factor is available to tenant accounts only', undefined, 'totp_unavailable');
    }
    return account.tenantId;
  }
}

function binding(account: Account): FieldBinding {
  return { table: 'accounts', rowId: account.id, field: 'totp_secret' };
}

/** The time step `code` belongs to, or undefined when it matches none in the window. */
function stepOf(base32: string, code: string): number | undefined {
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(base32), period: PERIOD, window: WINDOW });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD }) + delta;
}
