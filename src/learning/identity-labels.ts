import type { IdentityField, IdentityHashes, LabelType } from '../store/learning-ports.ts';

/**
 * The label type each identity of a transaction is kept under: the evidence an outcome gives it and
 * its `confirmed_fraud` key. The userID option and customer_id are one identity. The email domain is
 * left out: one payment says nothing about everyone on that domain.
 */
export const IDENTITY_LABEL_TYPES: Readonly<Partial<Record<IdentityField, LabelType>>> = {
  customer: 'customer_id',
  user: 'customer_id',
  email: 'email',
  phone: 'phone',
  ip: 'ip',
  device: 'device_id',
  card: 'card',
};

/** The labelled identities of a transaction's hashes, each (type, hash) once. */
export function labelledIdentities(hashes: IdentityHashes): Array<{ type: LabelType; hash: string }> {
  const out = new Map<string, { type: LabelType; hash: string }>();
  for (const [field, type] of Object.entries(IDENTITY_LABEL_TYPES) as Array<[IdentityField, LabelType]>) {
    const hash = hashes[field];
    if (hash) out.set(`${type}:${hash}`, { type, hash });
  }
  return [...out.values()];
}
