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
 *
 * A card number is the one identity whose values can be enumerated: its BIN and last four are kept in clear
 * (events, labels, the decision log show them, as processors do), which leaves about 10^5 numbers to try. So a
 * card's hash is keyed a second time with the card key, which is never kept in DATA_DIR (card-key.ts): a copy of
 * the data directory, secret.key included, cannot test candidates (docs/operations.md, "Card numbers").
 */
export class IdentityHasher {
  readonly #key: Buffer;
  readonly #cardKey: Buffer;

  constructor(secret: string, cardSecret: string) {
    // Derived keys: these hashes never share a key with API-key hashes or webhook sealing.
    this.#key = createHmac('sha256', secret).update('vigil/identity/v1').digest();
    this.#cardKey = createHmac('sha256', cardSecret).update('vigil/card/v2').digest();
  }

  /** The keyed hash of one normalised value of one identity type. */
  hash(type: LabelType, value: string): string {
    const hash = createHmac('sha256', this.#key).update(`${type}\u0000${value}`, 'utf8').digest('hex');
    return type === 'card' ? this.rekeyCard(hash) : hash;
  }

  /** A card's hash of the first scheme (under SECRET_KEY only) as it is now: the store's upgrade uses it. */
  rekeyCard(hash: string): string {
    return createHmac('sha256', this.#cardKey).update(hash, 'utf8').digest('hex');
  }
}
