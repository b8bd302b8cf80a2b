import type { DomainData } from '../../data/domain-data.ts';
import { fakeDomainFacts } from '../../intel/domain/fake.ts';
import { domainProblem, normaliseDomain } from '../../intel/domain/name.ts';
import type { DomainListFacts, DomainNetworkFacts, DomainResult } from '../../intel/domain/types.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';
import { TEST_MODE_INSTANT } from './lookup-country.ts';

/** The `domain` parameter as an ASCII FQDN (IDN converted to punycode), else 128 saying why. */
export function readDomain(query: Readonly<Record<string, unknown>>): string {
  const raw = readParam(query, 'domain', 128);
  if (raw === undefined || raw.trim() === '') throw new ApiError(128, 'The "domain" parameter is required: send a fully qualified domain name such as example.com.');
  const name = normaliseDomain(raw);
  if (name === null) throw new ApiError(128, `The "domain" parameter is not a valid fully qualified domain name: ${domainProblem(raw)}.`);
  return name;
}

/** The spec's field order (spec "Domain result"). */
function result(name: string, lists: DomainListFacts, net: DomainNetworkFacts): DomainResult {
  return {
    name,
    is_dangerous: lists.is_dangerous,
    is_disposable: lists.is_disposable,
    is_forwarding: lists.is_forwarding,
    is_spf: net.is_spf,
    is_dmarc: net.is_dmarc,
    is_dkim: net.is_dkim,
    is_mx: net.is_mx,
    is_bimi: net.is_bimi,
    created_at: net.created_at,
    is_new: net.is_new,
  };
}

/** GET /lookup/domain: lists (dangerous, disposable, forwarding), DNS mail records and registration date. */
export function domainEndpoint(data: DomainData): EndpointDef {
  const live = async (ctx: RequestContext): Promise<DomainResult> => {
    const name = readDomain(ctx.query);
    const net = await data.network.facts(name, { budgetMs: data.budgetMs, now: ctx.now });
    return result(name, data.lists.lists(name), net);
  };
  const test = (ctx: RequestContext): DomainResult => {
    const name = readDomain(ctx.query);
    return result(name, data.lists.lists(name), fakeDomainFacts(name, TEST_MODE_INSTANT));
  };
  return {
    operation: 'lookup.domain',
    method: 'GET',
    summary: 'Domain facts',
    description:
      'Whether the domain is on the dangerous (imported phishing/malware), disposable or forwarding lists (a subdomain of a listed domain counts), ' +
      'whether it publishes MX, SPF, DMARC, DKIM (common selectors) and BIMI records, and its registration date from RDAP with `is_new` ' +
      '(registered within a year). DNS and RDAP facts not known within the network budget are null and are looked up in the background. ' +
      'Internationalised names are accepted and answered in punycode. Missing or invalid domain: 128.',
    query: { domain: { type: 'string', required: true, description: 'Fully qualified domain name, e.g. example.com', example: 'example.com' } },
    sample: { domain: 'example.com' },
    get datasets() {
      return data.datasets;
    },
    live,
    test,
  };
}
