import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';

/**
 * OWASP's Argon2id setting (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane. `Algorithm`
 * is a const enum the package's types declare; its value is spelled out so a transpile-only
 * build (ts-jest) needs no type information.
 */
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashing and checking passwords; never logs or keeps one. */
@Injectable()
export class Passwords {
  /** A hash of nothing anyone knows: checked when there is no real hash, so every refusal costs the same. */
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  /**
   * Whether `password` matches `stored`. With no stored hash (no such account, no password set
   * yet) a dummy is checked all the same, so an unknown email answers as slowly as a wrong password.
   */
  async matches(stored: string | null | undefined, password: string): Promise<boolean> {
    if (stored) return verify(stored, password).catch(() => false);
    this.dummy ??= hash(`cairn-dummy-${Math.random()}`, OPTIONS);
    await verify(await this.dummy, password).catch(() => false);
    return false;
  }
}
