import { createHmac } from 'node:crypto';
import type { LabelType } from '../store/learning-ports.ts';

/**
 * Keyed hashes of identities (HMAC-SHA256 under SECRET_KEY, hex). Learning keeps identities only
 * in this form: a stolen database does not give back the emails, phones or cards it learned from,
 * and the same value always meets the same hash, so labels, velocity and deletion still work.
 *
 * The identity type is part of the hashed text, so `12345` as a customer id and `12345` as a
 * device id are different identities. The userID option and `customer_id` are the same identity
 * (both are the business's user id): both hash as `customer_id`.
 */
export class IdentityHasher {
  readonly #key: Buffer;

  constructor(secret: string) {
    // A derived key: these hashes never share a key with API-key hashes or webhook sealing.
    this.#key = createHmac('sha256', secret).update('vigil/identity/v1').digest();
  }

  /** The keyed hash of one normalised value of one identity type. */
  hash(type: LabelType, value: string): string {
    return createHmac('sha256', this.#key).update(`${type}\u0000${value}`, 'utf8').digest('hex');
  }
}
