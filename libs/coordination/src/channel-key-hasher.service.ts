import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/** scrypt as the issue fixes it: N = 2^15 (OWASP's interactive minimum), r = 8, p = 1, 64-byte output. */
export const SCRYPT_PARAMS = { algorithm: 'scrypt', N: 32_768, r: 8, p: 1, keyLength: 64 } as const;
export const SALT_BYTES = 32;
/** An explicit cap: one derivation needs 128·N·r = 32 MiB; parameters asking for more fail instead of allocating. */
export const SCRYPT_MAXMEM = 64 * 1024 * 1024;
/**
 * Derivations running at once in this process; the rest wait. Each holds 32 MiB and a libuv
 * thread, so a burst of key checks can neither exhaust memory nor starve the thread pool
 * (which DNS lookups and file reads share).
 */
const CONCURRENT_DERIVATIONS = 2;

export type ScryptParams = typeof SCRYPT_PARAMS;

/** The channel key's one-way function (Node's scrypt), bounded in memory and concurrency. */
@Injectable()
export class ChannelKeyHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  newSalt(): Buffer {
    return randomBytes(SALT_BYTES);
  }

  /** The key's scrypt hash under `salt` and the stored parameters (which must be the fixed ones). */
  async derive(key: string, salt: Buffer, params: Readonly<Record<string, unknown>> = SCRYPT_PARAMS): Promise<Buffer> {
    const { N, r, p, keyLength } = checkedParams(params);
    await this.acquire();
    try {
      const options: ScryptOptions = { N, r, p, maxmem: SCRYPT_MAXMEM };
      return await new Promise<Buffer>((resolve, reject) =>
        scrypt(key.normalize('NFC'), salt, keyLength, options, (error, derived) =>
          error ? reject(error) : resolve(derived),
        ),
      );
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    if (this.running < CONCURRENT_DERIVATIONS) {
      this.running += 1;
      return;
    }
    // The releasing derivation hands its slot over directly: `running` stays the same.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

/** Stored parameters are ours to trust only if they are exactly the ones this release writes. */
function checkedParams(params: Readonly<Record<string, unknown>>): ScryptParams {
  const same = (Object.keys(SCRYPT_PARAMS) as (keyof ScryptParams)[]).every(
    (name) => params[name] === SCRYPT_PARAMS[name],
  );
  if (!same) throw new Error('channel key stored with unexpected scrypt parameters');
  return SCRYPT_PARAMS;
}
