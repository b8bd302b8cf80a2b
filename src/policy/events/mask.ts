/**
 * Masking of personal subjects stored in the event log and sent to webhooks: enough to recognise a
 * value one already knows, not enough to recover one. Endpoints call these when they raise events.
 */

function maskMiddle(s: string, keepStart: number, keepEnd: number): string {
  const chars = [...s];
  if (chars.length <= keepStart + keepEnd) return chars.map((c, i) => (i === 0 ? c : '*')).join('');
  return chars.slice(0, keepStart).join('') + '*'.repeat(chars.length - keepStart - keepEnd) + chars.slice(chars.length - keepEnd).join('');
}

/** `john.doe@example.com` -> `j******e@example.com`; the domain stays readable. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return maskMiddle(email, 1, 1);
  return `${maskMiddle(email.slice(0, at), 1, 1)}${email.slice(at)}`;
}

/** `447911123456` -> `4479*****456`: country and operator prefix, last three digits. */
export function maskPhone(digits: string): string {
  return maskMiddle(digits, 4, 3);
}

/** A card number keeps its BIN (first 6) and last four, as payment processors show it. */
export function maskCard(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length <= 10) return digits.slice(0, 6);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

/** An IBAN keeps country, check digits and last four. */
export function maskIban(iban: string): string {
  const s = iban.replace(/\s/g, '').toUpperCase();
  return maskMiddle(s, 4, 4);
}

/**
 * Free text: each word of three or more letters or digits keeps its first and last character (names,
 * numbers and addresses in the text are masked as well as the offending words), and a longer text is
 * cut to `max` characters, the last being `…`.
 */
export function maskText(text: string, max = 100): string {
  // Only the head is kept: find where code point `max` starts without splitting the whole text.
  let end = 0;
  let count = 0;
  while (end < text.length && count < max) {
    end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
    count++;
  }
  const long = end < text.length;
  let head = text.slice(0, end);
  if (long) head = [...head].slice(0, max - 1).join('');
  const masked = head.replace(/[\p{L}\p{N}\p{M}]{3,}/gu, (w) => maskMiddle(w, 1, 1));
  return long ? `${masked}…` : masked;
}
