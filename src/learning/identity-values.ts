import { normalizeEmail } from '../intel/email/normalize.ts';
import { parseEmail } from '../intel/email/syntax.ts';
import { parseIpInput } from '../intel/ip/address.ts';
import type { LabelType } from '../store/learning-ports.ts';

/**
 * The one normal form of each identity type before it is hashed (identity-hash.ts). Payments,
 * feedback, deletion and the email, phone and IP checks all go through here, so a label given as
 * ` John@Example.com ` meets the payment that sent `john@example.com`. Null: not a value of that type.
 *
 * - ip: canonical text (RFC 5952, IPv4-mapped folded to IPv4).
 * - email: the mailbox the address reaches (lower case, `+tag` dropped, Gmail dots folded), as the
 *   email result's `normalized`; email_domain: the part after the last `@` (or the value), lower case.
 * - phone: digits only, a leading international `00` dropped (E.164 digits, as the phone result's `phone`).
 * - card: every digit of the number; card_bin: the leading 6 to 8 digits.
 * - customer_id, device_id: trimmed, as sent (ids are case-sensitive); text: trimmed, lower case.
 */
export function normaliseIdentity(type: LabelType, raw: string): string | null {
  const s = raw.trim();
  if (s === '' || s.length > 10_000) return null;
  switch (type) {
    case 'ip': {
      const parsed = parseIpInput(s);
      return parsed.ok ? parsed.value.ip : null;
    }
    case 'email': {
      // The mailbox (the email result's `normalized`): `Fraud.Ster+x@googlemail.com` is fraudster@gmail.com.
      const parsed = parseEmail(s);
      if (parsed.ok) return normalizeEmail(parsed.email);
      const at = s.lastIndexOf('@');
      return at > 0 && at < s.length - 1 ? s.toLowerCase() : null;
    }
    case 'email_domain': {
      const domain = s.slice(s.lastIndexOf('@') + 1).toLowerCase().replace(/\.$/, '');
      return /^[^\s@]+\.[^\s@]+$/.test(domain) ? domain : null;
    }
    case 'phone': {
      let digits = s.replace(/[\s().+-]/g, '');
      if (!/^\d+$/.test(digits)) return null;
      if (digits.startsWith('00')) digits = digits.slice(2);
      return digits.length >= 7 && digits.length <= 15 ? digits : null;
    }
    case 'card': {
      const digits = s.replace(/[\s-]/g, '');
      return /^\d{6,19}$/.test(digits) ? digits : null;
    }
    case 'card_bin': {
      const digits = s.replace(/[\s-]/g, '');
      const lead = /^\d{6,19}/.exec(digits)?.[0];
      return lead ? lead.slice(0, Math.min(8, lead.length)) : null;
    }
    case 'customer_id':
    case 'device_id':
      return s.length <= 1000 ? s : null;
    case 'text':
      return s.toLowerCase();
  }
}
