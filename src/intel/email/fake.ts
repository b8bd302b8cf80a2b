import { createHash } from 'node:crypto';
import { fakeDomainFacts } from '../domain/fake.ts';
import type { DomainNetworkFacts } from '../domain/types.ts';

/** The instant test-mode answers are computed at (the same as GET /lookup/country and /lookup/domain). */
export const TEST_MODE_NOW = new Date('2025-06-21T12:00:00Z');

/**
 * Test mode's DNS and RDAP facts for the domain of an address, deterministic, with no network.
 * A major provider (`known`: the typo-suggestion providers) looks like one: it takes mail,
 * publishes SPF, DMARC and DKIM, and was registered before 2005. Any other domain gets the
 * facts GET /lookup/domain gives it in test mode, so both methods agree.
 */
export function fakeNetworkFacts(domain: string, known: boolean): DomainNetworkFacts {
  if (!known) return fakeDomainFacts(domain, TEST_MODE_NOW);
  const h = createHash('sha256').update(`vigil-test-provider:${domain}`).digest();
  const created = new Date(Date.UTC(1995 + ((h[0] ?? 0) % 10), (h[1] ?? 0) % 12, 1 + ((h[2] ?? 0) % 28)));
  return {
    is_mx: true, is_spf: true, is_dmarc: true, is_dkim: true, is_bimi: (h[3] ?? 0) % 100 < 30,
    created_at: created.toISOString().replace('.000Z', 'Z'), is_new: false,
  };
}
