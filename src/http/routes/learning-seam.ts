import type { Learning } from '../../learning/index.ts';
import type { LabelLookups } from '../../learning/label-lookups.ts';
import type { LabelType } from '../../store/learning-ports.ts';
import type { ListProbe } from '../../policy/types.ts';
import { ApiError } from '../errors.ts';

/**
 * The learning services of the app. Endpoint lists built without them (the OpenAPI document, the
 * shared test matrix's inventory) still describe the methods; a call then fails cleanly with 115.
 */
export function needLearning(learning: Learning | undefined): Learning {
  if (!learning) throw new ApiError(115, 'Payment scoring and feedback are not available on this server.');
  return learning;
}

/** The `identity` of an event about one value (spread into the RaisedEvent); nothing without the learning services. */
export function identityOf(labels: LabelLookups | undefined, type: LabelType, value: string): { identity?: { type: LabelType; hash: string } } {
  const hash = labels?.hashOf(type, value) ?? null;
  return hash === null ? {} : { identity: { type, hash } };
}

/**
 * A subject's decision-record identities: the keyed hash of one value as a one-element list ([]
 * without the learning services), worked out when called. The thunk holds only these arguments.
 */
export function deferredHashes(labels: LabelLookups | undefined, type: LabelType, value: string): () => string[] {
  return () => {
    const hash = labels?.hashOf(type, value) ?? null;
    return hash === null ? [] : [hash];
  };
}

/**
 * The probe of one value against the account's automatic `confirmed_fraud` list (spec "Identity
 * label": with autoBlacklistConfirmedFraud on, a fraud label puts `<type>:<keyed hash>` there), so
 * the answer's `blacklisted` says true for it as for any other list of the account. The hash is
 * worked out only when read, and the list index reads it only when the account's list has entries:
 * accounts without that list pay nothing. [] without the learning services.
 */
export function confirmedFraudProbe(labels: LabelLookups | undefined, type: LabelType, value: string): ListProbe[] {
  if (!labels) return [];
  let key: string | undefined;
  return [{
    type: 'confirmed_fraud',
    get value(): string {
      if (key === undefined) {
        const hash = labels.hashOf(type, value);
        // An empty probe matches nothing (probeKeys).
        key = hash === null ? '' : `${type}:${hash}`;
      }
      return key;
    },
  }];
}

/**
 * A BIN lookup's decision-record identities: the keyed hashes of the BIN (6 to 8 digits) and of its first
 * 6 digits, the two `card_bin` identities a payment scoring labels, so backtests of `bin` rules find
 * labels given either way ([] without the learning services).
 */
export function deferredBinHashes(labels: LabelLookups | undefined, bin: string): () => string[] {
  return () => {
    const out: string[] = [];
    for (const value of bin.length > 6 ? [bin.slice(0, 6), bin] : [bin]) {
      const hash = labels?.hashOf('card_bin', value) ?? null;
      if (hash !== null) out.push(hash);
    }
    return out;
  };
}

/** Decision-record identities already hashed (payment scoring): a thunk that holds only the list. */
export function fixedHashes(hashes: readonly string[]): () => readonly string[] {
  return () => hashes;
}
