import type { DatasetInfo } from '../../intel/country/facts.ts';
import { emailDomain } from '../../intel/ip/lookup.ts';
import { NO_CONTACTS, type AsnDirectory, type IpSources } from '../../intel/ip/types.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';

/** `AS13335`, `as13335` or `13335`: 1 to 4294967295 (32-bit AS numbers), no leading zeros or spaces. */
const ASN_INPUT = /^(?:[Aa][Ss])?([1-9]\d{0,9})$/;
const MAX_ASN = 4_294_967_295;

export function parseAsnInput(sent: string): number | null {
  const m = ASN_INPUT.exec(sent.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n <= MAX_ASN ? n : null;
}

/**
 * GET /lookup/asn: one autonomous system (decisions.md shape). Names from bgp.tools, asn2org and
 * GeoLite2 ASN; prefixes from GeoLite2 ASN; contacts, creation date, status and registry from the
 * registry's RDAP record, waited for at most NETWORK_BUDGET_MS (then null, and the cache fills for the
 * next call). An AS number that is valid but unknown to every source is answered with null fields
 * and no prefixes rather than an error: it may simply not be announced.
 */
export function asnEndpoint(sources: IpSources, directory: AsnDirectory, budgetMs: number, datasets: () => readonly DatasetInfo[]): EndpointDef {
  const answer = async (asn: number, live: boolean) => {
    const prefixes = directory.prefixes(asn);
    const first = prefixes.ipv4[0] ?? prefixes.ipv6[0];
    const geoOrg = first === undefined ? null : (sources.asnOf(first.replace(/\/\d+$/, ''))?.autonomous_system_organization ?? null);
    const facts = sources.asnFacts(asn, geoOrg);
    const contacts = live ? await directory.contactsWithin(asn, budgetMs) : NO_CONTACTS;
    const email = contacts.email;
    return {
      asn: `AS${asn}`,
      name: facts.name,
      country: facts.country,
      org: facts.org,
      phone: contacts.phone,
      email,
      domain: emailDomain(email),
      status: contacts.status ?? (first !== undefined ? 'active' : null),
      created: contacts.created,
      type: facts.name === null && facts.org === null && first === undefined ? null : sources.asnType(asn, facts.org),
      registry: contacts.registry ?? directory.registryOf(asn),
      prefixes: { ipv4: [...prefixes.ipv4], ipv6: [...prefixes.ipv6], total: prefixes.ipv4.length + prefixes.ipv6.length },
    };
  };
  const read = (query: Readonly<Record<string, unknown>>): number => {
    const sent = readParam(query, 'asn', 121);
    if (sent === undefined || sent.trim() === '') throw new ApiError(121, 'The "asn" parameter is required: send an AS number such as AS13335 or 13335.');
    const asn = parseAsnInput(sent);
    if (asn === null) throw new ApiError(121, `"${sent.slice(0, 24)}" is not an AS number: send AS followed by 1 to 4294967295, or the number alone.`);
    return asn;
  };
  return {
    operation: 'lookup.asn',
    method: 'GET',
    summary: 'Autonomous system lookup',
    description:
      'Name, organisation, country, type (isp, hosting, business, education, government), registry contacts and creation date, ' +
      'and every announced IPv4/IPv6 prefix of an AS. Send `AS13335` or `13335`; anything else: 121.',
    query: { asn: { type: 'string', required: true, description: 'AS number, e.g. AS13335', example: 'AS13335' } },
    sample: { asn: 'AS13335' },
    get datasets() {
      return datasets();
    },
    live: (ctx) => answer(read(ctx.query), true),
    // Test mode: the same local data, no registry lookups.
    test: (ctx) => answer(read(ctx.query), false),
  };
}
