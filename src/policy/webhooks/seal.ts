import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest: AES-256-GCM under a key derived from the server SECRET_KEY, so a copy of the
 * database alone does not let anyone forge deliveries. Format: `v1:` + base64(iv[12] || ciphertext || tag[16]).
 * Changing SECRET_KEY makes stored secrets unreadable: rotate each webhook's secret afterwards.
 */

const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function sealingKey(serverSecret: string): Buffer {
  if (serverSecret.length === 0) throw new Error('the server secret is empty');
  return createHmac('sha256', serverSecret).update('vigil webhook secrets v1').digest();
}

export function sealSecret(serverSecret: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverSecret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

/** The plaintext of a sealed secret; throws when it is malformed, tampered with or sealed under another key. */
export function openSecret(serverSecret: string, sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new Error('sealed webhook secret: unknown format');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('sealed webhook secret: too short');
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(raw.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(serverSecret), iv);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('sealed webhook secret: authentication failed (tampered, or sealed under another SECRET_KEY)');
  }
}
