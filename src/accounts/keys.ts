import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { KeyKind } from '../store/ports.ts';

export const KEY_PREFIXES: Record<KeyKind, string> = { live: 'svc_live_', test: 'svc_test_' };
const KEY_BODY = /^[A-Za-z0-9]{16,128}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The kind a key's prefix declares, or null when the string cannot be a Vigil key. */
export function keyKind(key: string): KeyKind | null {
  for (const kind of ['live', 'test'] as const) {
    const prefix = KEY_PREFIXES[kind];
    if (key.startsWith(prefix) && KEY_BODY.test(key.slice(prefix.length))) return kind;
  }
  return null;
}

/**
 * Keyed hash of an API key. Lookups go by this hash through a unique index, so the time a lookup
 * takes depends on the hash, which an attacker cannot steer toward a stored key: no plaintext
 * comparison ever happens.
 */
export function hashKey(secret: string, key: string): string {
  return createHmac('sha256', secret).update('api-key:').update(key).digest('hex');
}

/** A new random key: prefix plus 32 base62 characters (about 190 bits). */
export function generateKey(kind: KeyKind): string {
  const bytes = randomBytes(32);
  let body = '';
  // 256 % 62 bias is negligible at 190 bits of entropy; rejection sampling would buy nothing.
  for (const b of bytes) body += ALPHABET[b % ALPHABET.length];
  return KEY_PREFIXES[kind] + body;
}

export function newKeyId(): string {
  return `key_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}
