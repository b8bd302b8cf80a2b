import type { CountryData, DatasetInfo } from '../../data/countries.ts';
import { parseIpInput, type IpAddress } from '../../intel/ip/address.ts';
import { isBotUserAgent, parseDevice } from '../../intel/ip/device.ts';
import { fakeIpSources } from '../../intel/ip/fake.ts';
import { lookupIp, type IpLookup, type IpLookupOptions, type SecurityBlock } from '../../intel/ip/lookup.ts';
import { ipRisk, SUSPICIOUS_IP_RISK, type IpRisk } from '../../intel/ip/risk.ts';
import { FRAUD_LABEL_IP_RISK } from '../../learning/engine-signals.ts';
import type { LabelLookups } from '../../learning/label-lookups.ts';
import { confirmedFraudProbe, deferredHashes, identityOf } from './learning-seam.ts';
import { GEOIP_MODULES, IP_MODULES, noContacts, type IpSources } from '../../intel/ip/types.ts';
import type { EndpointPolicy, PolicySubject } from '../../policy/types.ts';
import { writeVerdict } from '../../policy/verdict.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';
import { NoteKey, type AnswerNotes } from '../answer-notes.ts';
import { TEST_MODE_INSTANT } from './lookup-country.ts';

/** Most addresses one bulk call takes (spec). */
export const MAX_BULK_IPS = 50;

/** One answered address and what the policy stage needs beside it, noted beside the answer (answer-notes.ts). */
const LOOKUP = new NoteKey<IpLookup>('ip lookup');

function userAgentOf(ctx: RequestContext): string | undefined {
  const ua = ctx.headers['user-agent'];
  return typeof ua === 'string' ? ua : undefined;
}

/** The `ip` parameter of /lookup/ip and /lookup/ip/threats, parsed; missing, empty or malformed: 112. */
function requiredIp(ctx: RequestContext): IpAddress {
  const sent = readParam(ctx.query, 'ip', 112);
  if (sent === undefined || sent.trim() === '') throw new ApiError(112, 'The "ip" parameter is required: send an IPv4 or IPv6 address.');
  return parseOrFail(sent);
}

function parseOrFail(sent: string): IpAddress {
  const parsed = parseIpInput(sent);
  if (!parsed.ok) throw new ApiError(112, `The IP address is malformed: ${parsed.problem}.`);
  return parsed.value;
}

/** Explanation of the engine's part: each flag's source and version, and the risk's signals. */
function explainLookup(found: IpLookup): Record<string, unknown>[] {
  return found.sources.map((s) => ({ source: 'security', flag: s.flag, dataset: s.dataset, version: s.version, ...(s.detail !== undefined && { detail: s.detail }) }));
}

export interface IpEngine {
  /** Identity labels (spec "Identity label": a fraud-labelled address is rated high risk); absent without the learning services. */
  readonly labels?: LabelLookups | undefined;
  readonly live: IpSources;
  /** Realistic, deterministic per address, no network (test mode). */
  readonly test: IpSources;
  readonly countries: CountryData;
}

export function ipEngine(live: IpSources, countries: CountryData, labels?: LabelLookups): IpEngine {
  return { live, test: fakeIpSources(live), countries, labels };
}

/** Answers that carry an address labelled fraud by the account's feedback (live calls only). */
const FRAUD_LABELLED = new NoteKey<true>('fraud-labelled address');

/** Marks the live answers whose address carries a fraud label: one store read for all of them. */
async function markLabels(engine: IpEngine, ctx: RequestContext, answers: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  if (!engine.labels || ctx.testMode || !ctx.caller || answers.length === 0) return;
  const fraud = await engine.labels.fraudValues(ctx.caller.account.id, 'ip', answers.map((a) => String(a.ip)), ctx.now);
  for (const a of answers) if (fraud.has(String(a.ip))) ctx.notes.set(FRAUD_LABELLED, a, true);
}

function answerOne(engine: IpEngine, ctx: RequestContext, addr: IpAddress, withDevice: boolean): Record<string, unknown> {
  const ua = withDevice ? userAgentOf(ctx) : undefined;
  const opts: IpLookupOptions = {
    lang: ctx.options.lang,
    modules: ctx.options.modules,
    now: ctx.testMode ? TEST_MODE_INSTANT : ctx.now,
    flagBaseUrl: ctx.baseUrl,
    device: withDevice ? { block: parseDevice(ua), isBot: isBotUserAgent(ua) } : undefined,
    ...(ctx.testMode && { contacts: noContacts }),
  };
  const found = lookupIp(addr, ctx.testMode ? engine.test : engine.live, engine.countries, opts);
  if (ctx.options.explain) found.result.explanation = { contributions: explainLookup(found) };
  ctx.notes.set(LOOKUP, found.result, found);
  return found.result;
}

/**
 * The result as the decision log keeps it for backtests: what rules can read, as JSON. An IPv6
 * IPNumber (a bigint) is kept as its decimal text; the explanation is not a rule field.
 */
function loggedView(view: Record<string, unknown>, security: SecurityBlock): Record<string, unknown> {
  const { explanation: _explanation, ...rest } = view;
  return Object.assign(rest, { IPNumber: String(view.IPNumber), security: Object.assign({}, security) });
}

/**
 * Policy of every IP method: the address is checked against the account's `ip` list (addresses and
 * CIDR ranges) and the rules of the `ip` group, which always see the whole IP result with the full
 * `security` block, even when the module was not asked for (or, for threats, not shown). The verdict
 * is shown in `block`: the `security` module of an IP result, or the `threats` block. For IP results,
 * a blacklist makes the risk 100 and a whitelist 0, and at risk 50 or more a live call raises
 * `suspicious_ip`; the threats method raises no event (the spec lists none for it).
 */
/** A fraud label rates the address at least FRAUD_LABEL_IP_RISK (a blacklisted one stays at 100). */
function withLabel(risk: IpRisk, labelled: boolean): IpRisk {
  if (!labelled) return risk;
  return { risk: Math.max(risk.risk, FRAUD_LABEL_IP_RISK), signals: [...risk.signals, { signal: 'fraud_label', weight: FRAUD_LABEL_IP_RISK / 100 }] };
}

/** The address's risk from its security flags and fraud label; a whitelisted address ignores the label. */
function riskOf(security: Parameters<typeof ipRisk>[0], whitelisted: boolean, labelled: boolean): IpRisk {
  return withLabel(ipRisk(security, whitelisted), labelled && !whitelisted);
}

function ipSubject(
  engine: IpEngine,
  result: Record<string, unknown>,
  input: Readonly<Record<string, unknown>>,
  block: 'security' | 'threats',
  notes: AnswerNotes,
): PolicySubject | null {
  const found = notes.get(LOOKUP, result);
  if (!found) return null;
  const ipResult = block === 'security';
  // Object.assign, not `{ ...found.result, security }`: on Node 20 each object made by a spread followed by
  // more properties gets a hidden class of its own (docs/benchmarks.md, 2026-11-24).
  const view: Record<string, unknown> = Object.assign({}, found.result, { security: found.security });
  const labelled = notes.get(FRAUD_LABELLED, result) === true;
  let risk = riskOf(found.security, false, labelled);
  return {
    input,
    result: view,
    lists: [{ type: 'ip', value: String(result.ip) }, ...confirmedFraudProbe(engine.labels, 'ip', String(result.ip))],
    apply(verdict) {
      found.security.blacklisted = verdict.blacklisted;
      const shown = result[block] as Record<string, unknown> | undefined;
      writeVerdict(result, verdict, { listed: shown, rulesCopy: ipResult ? shown : undefined });
      if (!ipResult) return;
      risk = riskOf(found.security, verdict.whitelisted, labelled);
      // The shown score is the one behind suspicious_ip: lists, rules and fraud labels included.
      if (shown !== undefined) shown.riskScore = risk.risk;
      const explanation = result.explanation as { contributions: unknown[] } | undefined;
      explanation?.contributions.push({ source: 'risk', risk: risk.risk, signals: risk.signals });
    },
    event() {
      if (!ipResult || risk.risk < SUSPICIOUS_IP_RISK) return null;
      const s = found.security;
      return {
        kind: 'suspicious_ip',
        risk: risk.risk,
        subject: String(result.ip),
        summary: {
          ip: result.ip, countryCode: result.countryCode, asn: (result.asn as { asn?: unknown } | undefined)?.asn ?? null, risk: risk.risk,
          isProxy: s.isProxy, proxyType: s.proxyType, isTor: s.isTor, isBot: s.isBot, isRelay: s.isRelay, isHosting: s.isHosting, blacklisted: s.blacklisted,
          fraudLabel: labelled,
          // The signals behind the risk, each with its weight (risk = 100 × (1 − Π(1 − weight))), for the console and webhook receivers.
          explanation: { contributions: risk.signals.map((sig) => ({ source: 'risk', signal: sig.signal, weight: sig.weight })) },
        },
        ...identityOf(engine.labels, 'ip', String(result.ip)),
      };
    },
    logged() {
      return loggedView(view, found.security);
    },
    identities: deferredHashes(engine.labels, 'ip', String(result.ip)),
  };
}

/** One subject per answer: /lookup/ip and /geoip (`security`), /lookup/ip/threats (`threats`). */
const singlePolicy = (engine: IpEngine, block: 'security' | 'threats'): EndpointPolicy => ({
  group: 'ip',
  subjects(data, input, notes) {
    if (typeof data !== 'object' || data === null) return [];
    const s = ipSubject(engine, data as Record<string, unknown>, input, block, notes);
    return s ? [s] : [];
  },
});

const bulkPolicy = (engine: IpEngine): EndpointPolicy => ({
  group: 'ip',
  subjects(data, _input, notes) {
    if (typeof data !== 'object' || data === null) return [];
    const out: PolicySubject[] = [];
    for (const [sent, entry] of Object.entries(data as Record<string, unknown>)) {
      if (typeof entry !== 'object' || entry === null) continue;
      const s = ipSubject(engine, entry as Record<string, unknown>, { ip: sent }, 'security', notes);
      if (s) out.push(s);
    }
    return out;
  },
});

const DATA_NOTE =
  'Geolocation from MaxMind GeoLite2 City (region and city names fall back to English where GeoLite2 has no translation, and always for Arabic), ' +
  'the AS from GeoLite2 ASN with bgp.tools and asn2org metadata and registry (RDAP) contacts filled in the background, ' +
  'security flags from the imported Tor, VPN, datacenter, cloud and Private Relay lists.';

/** GET /lookup/ip: one address. */
export function lookupIpEndpoint(engine: IpEngine, datasets: () => readonly DatasetInfo[]): EndpointDef {
  const answer = (ctx: RequestContext) => answerOne(engine, ctx, requiredIp(ctx), false);
  const live = async (ctx: RequestContext) => {
    const result = answer(ctx);
    await markLabels(engine, ctx, [result]);
    return result;
  };
  return {
    operation: 'lookup.ip',
    method: 'GET',
    summary: 'IP geolocation, network and threat lookup',
    description: `Geolocation, AS, and with \`params\` the location, currency, timezone and security modules of one IPv4 or IPv6 address. ${DATA_NOTE} Empty or malformed address: 112.`,
    query: { ip: { type: 'string', required: true, description: 'IPv4 or IPv6 address', example: '8.8.8.8' } },
    sample: { ip: '8.8.8.8' },
    modules: IP_MODULES,
    get datasets() {
      return datasets();
    },
    policy: singlePolicy(engine, 'security'),
    live,
    test: answer,
  };
}

/** GET /geoip: the caller's own address, with the device module from its User-Agent. */
export function geoipEndpoint(engine: IpEngine, datasets: () => readonly DatasetInfo[]): EndpointDef {
  const answer = (ctx: RequestContext) => answerOne(engine, ctx, parseOrFail(ctx.ip), true);
  const live = async (ctx: RequestContext) => {
    const result = answer(ctx);
    await markLabels(engine, ctx, [result]);
    return result;
  };
  return {
    operation: 'geoip',
    method: 'GET',
    summary: "The caller's own IP result",
    description: `The IP result of the address the request comes from (TRUST_PROXY decides whether X-Forwarded-For counts), with the \`device\` module parsed from the User-Agent. ${DATA_NOTE}`,
    sample: {},
    modules: GEOIP_MODULES,
    get datasets() {
      return datasets();
    },
    policy: singlePolicy(engine, 'security'),
    live,
    test: answer,
  };
}

/** GET /lookup/ip/bulk: up to 50 addresses, keyed by each address as sent. */
export function bulkIpEndpoint(engine: IpEngine, datasets: () => readonly DatasetInfo[]): EndpointDef {
  const answer = (ctx: RequestContext) => {
    const sent = readParam(ctx.query, 'ips', 112);
    if (sent === undefined || sent.trim() === '') throw new ApiError(112, 'The "ips" parameter is required: send up to 50 comma-separated IPv4 or IPv6 addresses.');
    const items = sent.split(',');
    if (items.length > MAX_BULK_IPS) throw new ApiError(112, `At most ${MAX_BULK_IPS} addresses per call; ${items.length} were sent.`);
    const parsed: Array<[string, IpAddress]> = [];
    const seen = new Map<string, string>();
    items.forEach((raw, i) => {
      const key = raw.trim();
      if (key === '') throw new ApiError(112, `Entry ${i + 1} of "ips" is empty.`);
      const parsedOne = parseIpInput(key);
      if (!parsedOne.ok) throw new ApiError(112, `Entry ${i + 1} of "ips" is malformed: ${parsedOne.problem}.`);
      const before = seen.get(parsedOne.value.ip);
      if (before !== undefined) throw new ApiError(112, `"${key.slice(0, 48)}" is sent twice (the same address as "${before.slice(0, 48)}").`);
      seen.set(parsedOne.value.ip, key);
      parsed.push([key, parsedOne.value]);
    });
    const data: Record<string, unknown> = {};
    const withDevice = ctx.options.modules.has('device');
    for (const [key, addr] of parsed) data[key] = answerOne(engine, ctx, addr, withDevice);
    return data;
  };
  const live = async (ctx: RequestContext) => {
    const data = answer(ctx);
    await markLabels(engine, ctx, Object.values(data) as Array<Record<string, unknown>>);
    return data;
  };
  return {
    operation: 'lookup.ip.bulk',
    method: 'GET',
    summary: 'Bulk IP lookup (up to 50 addresses)',
    description: `The IP result of each of up to ${MAX_BULK_IPS} comma-separated IPv4/IPv6 addresses, keyed by each address as sent. An empty, malformed or repeated entry fails the whole call with 112. Counts as one request.`,
    query: { ips: { type: 'string', required: true, description: 'Comma-separated IPv4/IPv6 addresses (at most 50)', example: '8.8.8.8,2606:4700:4700::1111' } },
    sample: { ips: '8.8.8.8,1.1.1.1' },
    modules: GEOIP_MODULES,
    keyed: true,
    get datasets() {
      return datasets();
    },
    policy: bulkPolicy(engine),
    live,
    test: answer,
  };
}

/** GET /lookup/ip/threats: the security flags of one address (decisions.md), no event. */
export function threatsEndpoint(engine: IpEngine, datasets: () => readonly DatasetInfo[]): EndpointDef {
  const answer = (ctx: RequestContext) => {
    const addr = requiredIp(ctx);
    const found = lookupIp(addr, ctx.testMode ? engine.test : engine.live, engine.countries, {
      lang: ctx.options.lang, modules: new Set(), now: ctx.now, flagBaseUrl: ctx.baseUrl, contacts: noContacts,
    });
    const s = found.security;
    const result: Record<string, unknown> = {
      ip: addr.ip,
      threats: { isProxy: s.isProxy, proxyType: s.proxyType, isTor: s.isTor, isBot: s.isBot, isRelay: s.isRelay, isHosting: s.isHosting, blacklisted: false },
    };
    if (ctx.options.explain) result.explanation = { contributions: explainLookup(found) };
    // Rules of the ip group read the whole IP result; the answer shows only the threats.
    ctx.notes.set(LOOKUP, result, { ...found, result: Object.assign({}, found.result, result) });
    return result;
  };
  return {
    operation: 'lookup.ip.threats',
    method: 'GET',
    summary: 'IP threat flags',
    description: 'Proxy/VPN, Tor, bot, Private Relay and hosting flags of one address, and whether the account\'s IP blacklists or rules list it. Empty or malformed address: 112.',
    query: { ip: { type: 'string', required: true, description: 'IPv4 or IPv6 address', example: '185.220.101.1' } },
    sample: { ip: '8.8.8.8' },
    get datasets() {
      return datasets();
    },
    policy: singlePolicy(engine, 'threats'),
    live: answer,
    test: answer,
  };
}
