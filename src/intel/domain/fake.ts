import { createHash } from 'node:crypto';
import type { DomainNetworkFacts } from './types.ts';
import { isNewDomain } from './age.ts';

/** The first day a registration date can fall on in test mode (the commercial web's early days). */
const EARLIEST = Date.UTC(1995, 0, 1);
const DAY_MS = 86_400_000;

/**
 * Test-mode network facts: realistic proportions (most domains take mail and publish SPF, fewer
 * DMARC/DKIM, few BIMI; about one in twenty registered within the last year), the same for the
 * same domain every time, computed without any network.
 */
export function fakeDomainFacts(domain: string, now: Date): DomainNetworkFacts {
  const h = createHash('sha256').update(`vigil-test-domain:${domain}`).digest();
  const pct = (i: number): number => (h[i] ?? 0) % 100;
  const isMx = pct(0) < 92;
  const isSpf = isMx ? pct(1) < 85 : pct(1) < 15;
  const isDmarc = isSpf && pct(2) < 70;
  const isDkim = isMx && pct(3) < 65;
  const isBimi = isDmarc && pct(4) < 8;
  const span = Math.max(1, Math.floor((now.getTime() - EARLIEST) / DAY_MS));
  const ageDays = pct(5) < 5 ? h.readUInt16BE(6) % 365 : 365 + (h.readUInt32BE(8) % Math.max(1, span - 365));
  const created = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ageDays * DAY_MS);
  const createdAt = created.toISOString().replace('.000Z', 'Z');
  return { is_mx: isMx, is_spf: isSpf, is_dmarc: isDmarc, is_dkim: isDkim, is_bimi: isBimi, created_at: createdAt, is_new: isNewDomain(createdAt, now) };
}
