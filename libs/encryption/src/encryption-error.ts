import { type EncryptionErrorCode } from './contract/encryption.types';

/**
 * A refusal of @cairn/encryption. Not a CairnError: none of these is the API caller's doing, so
 * the global filter answers 500 with a correlation id and only the log carries this message.
 * Messages name tenants, versions and master-key fingerprints, never keys or plaintext.
 */
export class EncryptionError extends Error {
  constructor(
    readonly code: EncryptionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EncryptionError';
  }
}
