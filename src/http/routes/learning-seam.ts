import type { Learning } from '../../learning/index.ts';
import type { LabelLookups } from '../../learning/label-lookups.ts';
import type { LabelType } from '../../store/learning-ports.ts';
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

/** Decision-record identities already hashed (payment scoring): a thunk that holds only the list. */
export function fixedHashes(hashes: readonly string[]): () => readonly string[] {
  return () => hashes;
}
