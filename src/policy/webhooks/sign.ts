import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (decisions.md "Webhooks"): `X-Webhook-Signature: t=<unix seconds>,v1=<hex>` where the hex
 * is HMAC-SHA256 of `<t>.<body>` keyed with the webhook secret (the whole secret string, UTF-8, `whsec_`
 * prefix included). Receivers recompute it over the raw body they received and compare in constant time;
 * the timestamp lets them refuse replays of old deliveries.
 */

export const SIGNATURE_HEADER = 'X-Webhook-Signature';

function hmacHex(secret: string, body: string, unixSeconds: number): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
}

/** The `X-Webhook-Signature` value for `body` sent at `unixSeconds`. */
export function signPayload(secret: string, body: string, unixSeconds: number): string {
  if (!Number.isSafeInteger(unixSeconds)) throw new RangeError(`signature time must be whole unix seconds, got ${unixSeconds}`);
  return `t=${unixSeconds},v1=${hmacHex(secret, body, unixSeconds)}`;
}

/**
 * True when `header` carries a `v1` signature of `body` under `secret` whose timestamp is within
 * `toleranceSeconds` of `nowSeconds`. Several `v1=` entries are accepted (any may match); unknown schemes
 * are ignored; a malformed header is simply not valid.
 */
export function verifySignature(header: string, body: string, secret: string, toleranceSeconds: number, nowSeconds: number): boolean {
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, body, timestamp), 'hex');
  let valid = false;
  // Compare against every candidate (no early exit) so timing says nothing about which one matched.
  for (const candidate of candidates) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) valid = true;
  }
  return valid;
}
