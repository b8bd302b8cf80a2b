import type { DatasetInfo } from '../intel/country/facts.ts';
import { IpSet } from '../policy/blacklists/ip-set.ts';
import { ASN_BGPTOOLS, ASN_NAMES_ASN2ORG } from './import/asn-lists.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';
import { CLOUD_RANGES_JHASSINE, DATACENTER_IPCAT, ICLOUD_PRIVATE_RELAY, TOR_EXIT_NODES, VPN_DATACENTER_X4BNET } from './import/ip-lists.ts';
import { AsnTable } from './asn-table.ts';
import { IpLabelIndex } from './ip-label-index.ts';
import {
  ANYCAST_INFRASTRUCTURE_ASNS, ANYCAST_INFRASTRUCTURE_DATASET, ANYCAST_RESOLVERS, IP_INFRASTRUCTURE_VERSION, VPN_OPERATOR_ASNS, VPN_OPERATOR_ASNS_DATASET,
} from './ip-infrastructure.ts';

/**
 * IP threat lists and ASN metadata for the IP-intelligence endpoints, read from the imported
 * datasets (`vigil data import DIR`, `vigil data update NAME`) and re-read when a new version is
 * imported or rolled back, without a restart. Until a dataset is imported it contributes nothing
 * and its version reads `none`.
 *
 * Flags and the datasets behind them:
 *
 * - isTor: the Tor exit lists only (tor-exit-nodes, section `exit`). A relay that is not an exit
 *   does not carry users' traffic out to the Internet, so a request from its address is not Tor
 *   traffic; the all-relays list is older (2024) and 6x larger and would mostly flag ordinary
 *   servers. A relay-only hit is still reported as a source `{flag: 'tor', detail: 'relay'}` so an
 *   explanation can mention it, with isTor false: a source's flag says which signal the list is
 *   about, and `detail: 'relay'` is the one source whose flag is not set in the match.
 * - isProxy / proxyType: 'TOR' for a Tor exit, which is an anonymising proxy too (isProxy true, so
 *   a caller checking isProxy alone does not miss Tor); else 'VPN' for X4BNet VPN ranges, X4BNet's
 *   VPN-operator ASNs and Vigil's VPN-operator ASNs (ip-infrastructure.ts). Tor wins over VPN when
 *   both hit (issue 25: 267 of 1,372 exits sat in an X4BNet VPN range, whose hosters also rent to
 *   Tor operators): the exit list is a daily, exact list of this address carrying Tor traffic, a
 *   VPN range only says who rents the block. The VPN source stays in the explanation.
 *   bgp.tools' `vpn` ASN tag is NOT a VPN signal by default (option `bgpVpnTag`): it marks networks
 *   where some VPN service has exits, and its 766 ASNs include Google (8.8.8.8), Cloudflare
 *   (1.1.1.1), Amazon, OVH, Hetzner, Equinix, and access ISPs such as Bell Canada, Korea Telecom,
 *   Kyivstar and a Rogers ASN, so an ASN-wide "VPN" would be wrong for nearly every address in
 *   them. It stays visible in `asn().tags`. When enabled, it is still ignored for access networks.
 *   An iCloud Private Relay egress address is a relay, not a VPN: X4BNet builds its VPN list from
 *   Apple's egress list among others (3,289 of the 3,290 IPv4 relay ranges are in it), so for a
 *   relay address the VPN signals are the same fact counted twice and are dropped; isHosting
 *   stays, since the egress nodes do sit in Cloudflare, Akamai and Fastly datacenters.
 * - isHosting: X4BNet datacenter ranges, jhassine cloud ranges (detail: vendor), ipcat (detail:
 *   provider; 2019 data, a secondary signal), X4BNet's hosting ASNs, bgp.tools' `vpsh` tag, and
 *   Vigil's anycast list (public DNS resolver prefixes, CDN and anycast ASNs; ip-infrastructure.ts),
 *   which is not applied to a Private Relay egress (already a relay; its users are ordinary people).
 * - isRelay: iCloud Private Relay egress ranges.
 *
 * Every flag that is true has at least one source naming the dataset and its version.
 */

export type ThreatSourceFlag = 'tor' | 'vpn' | 'hosting' | 'relay';
export interface ThreatSource {
  flag: ThreatSourceFlag;
  dataset: string;
  version: string;
  /** What matched: a vendor or provider ('AWS'), a section ('exit', 'relay'), an ASN list ('AS9009 (vpn-asn)'). */
  detail?: string;
}
export interface ThreatMatch {
  isTor: boolean;
  isProxy: boolean;
  proxyType: string | null;
  isHosting: boolean;
  isRelay: boolean;
  sources: ThreatSource[];
}
export interface AsnMeta {
  asn: number;
  /** bgp.tools' name of the ASN. */
  name: string | null;
  /** asn2org's organisation (PeeringDB, RIR registries, DB-IP). */
  org: string | null;
  /** bgp.tools' class (Eyeball, Content, Carrier, T1); null when Unknown. */
  bgpClass: string | null;
  country: string | null;
  /** bgp.tools tags (vpn, vpsh, dsl, mobile, uni, gov, corp, ...), sorted. */
  tags: readonly string[];
}
export type AsnType = 'isp' | 'hosting' | 'business' | 'education' | 'government';

export interface IpThreatData {
  /** ip: canonical text (IPv4 dotted or IPv6); asn: from GeoLite2-ASN or null. */
  match(ip: string, asn: number | null): ThreatMatch;
  asn(asn: number): AsnMeta | null;
  /** See classifyAsn. */
  asnType(asn: number, orgName: string | null): AsnType;
  /** Every dataset used here, with name/version/source/licence (version 'none' until imported). */
  readonly datasets: readonly DatasetInfo[];
  /** Re-reads every dataset whose manifest changed (the watcher does this every reloadMs too). */
  refresh(): void;
  /** Stops the reload timer. */
  close(): void;
}

// --- parsed forms of the stored files -----------------------------------------------------------

interface TorLists { exit: IpSet; relay: IpSet }
interface X4bLists { vpn: IpSet; datacenter: IpSet; vpnAsn: ReadonlyMap<number, string>; datacenterAsn: ReadonlyMap<number, string> }
interface BgpRecord { name: string; bgpClass: string | null; cc: string | null; tags: readonly string[] }

const EMPTY_TOR: TorLists = { exit: IpSet.EMPTY, relay: IpSet.EMPTY };
const EMPTY_X4B: X4bLists = { vpn: IpSet.EMPTY, datacenter: IpSet.EMPTY, vpnAsn: new Map(), datacenterAsn: new Map() };
const NO_TAGS: readonly string[] = Object.freeze([]);

function* rows(content: string): Generator<string[]> {
  for (const line of content.split('\n')) if (line !== '') yield line.split('\t');
}

export function parseTorTsv(content: string): TorLists {
  const exit: string[] = [];
  const relay: string[] = [];
  for (const [section, ip] of rows(content)) {
    if (ip === undefined) continue;
    if (section === 'exit') exit.push(ip);
    else if (section === 'relay') relay.push(ip);
  }
  return { exit: IpSet.build(exit), relay: IpSet.build(relay) };
}

export function parseX4bTsv(content: string): X4bLists {
  const vpn: string[] = [];
  const datacenter: string[] = [];
  const vpnAsn = new Map<number, string>();
  const datacenterAsn = new Map<number, string>();
  for (const [section, value, comment] of rows(content)) {
    if (value === undefined) continue;
    if (section === 'vpn') vpn.push(value);
    else if (section === 'datacenter') datacenter.push(value);
    else if (section === 'vpn-asn') vpnAsn.set(Number(value), comment ?? '');
    else if (section === 'datacenter-asn') datacenterAsn.set(Number(value), comment ?? '');
  }
  return { vpn: IpSet.build(vpn), datacenter: IpSet.build(datacenter), vpnAsn, datacenterAsn };
}

export function parseLabelledTsv(content: string): IpLabelIndex {
  const entries: Array<[string, string]> = [];
  for (const [cidr, label] of rows(content)) if (cidr !== undefined) entries.push([cidr, label ?? '']);
  return IpLabelIndex.build(entries);
}

/**
 * The stored bgp.tools table (`asn<TAB>name<TAB>class<TAB>cc<TAB>tags`) behind an AsnTable. Class
 * and tag list are decoded once per row at load into small ids (a few classes; a few hundred tag
 * combinations, each one frozen array), because match() reads them on every call with an ASN and
 * must not allocate; name and country are cut from the text only when asn() asks.
 */
export class BgpTable {
  static readonly EMPTY = new BgpTable(AsnTable.EMPTY);
  private readonly classIds: Uint8Array;
  private readonly tagIds: Uint16Array;
  private readonly classes: Array<string | null> = [null];
  private readonly tagSets: Array<readonly string[]> = [NO_TAGS];

  constructor(private readonly table: AsnTable) {
    this.classIds = new Uint8Array(table.size);
    this.tagIds = new Uint16Array(table.size);
    const classId = new Map<string, number>([['', 0], ['Unknown', 0]]);
    const tagId = new Map<string, number>([['', 0]]);
    for (let row = 0; row < table.size; row++) {
      const cls = table.field(row, 1);
      let c = classId.get(cls);
      // 255 classes at most (bgp.tools has five); beyond that a class reads as unknown.
      if (c === undefined && this.classes.length < 256) {
        classId.set(cls, (c = this.classes.length));
        this.classes.push(cls);
      }
      this.classIds[row] = c ?? 0;
      const tags = table.field(row, 3);
      let t = tagId.get(tags);
      if (t === undefined && this.tagSets.length < 65536) {
        tagId.set(tags, (t = this.tagSets.length));
        this.tagSets.push(Object.freeze(tags.split(',')));
      }
      this.tagIds[row] = t ?? 0;
    }
  }

  static parse(content: string): BgpTable {
    return new BgpTable(AsnTable.parse(content));
  }

  get size(): number {
    return this.table.size;
  }

  /** The row of an ASN, or -1. */
  find(asn: number): number {
    return this.table.find(asn);
  }

  tags(row: number): readonly string[] {
    return row < 0 ? NO_TAGS : (this.tagSets[this.tagIds[row]!] ?? NO_TAGS);
  }

  /** bgp.tools class; null for Unknown (it says nothing) or no row. */
  bgpClass(row: number): string | null {
    return row < 0 ? null : (this.classes[this.classIds[row]!] ?? null);
  }

  /** The whole record of an ASN, or undefined. */
  get(asn: number): BgpRecord | undefined {
    const row = this.table.find(asn);
    if (row < 0) return undefined;
    const cc = this.table.field(row, 2);
    return { name: this.table.field(row, 0), bgpClass: this.bgpClass(row), cc: cc === '' ? null : cc, tags: this.tags(row) };
  }
}

export const parseBgpToolsTsv = (content: string): BgpTable => BgpTable.parse(content);

/** The stored asn2org table (`asn<TAB>org<TAB>source`): ASN -> organisation. */
export class OrgTable {
  static readonly EMPTY = new OrgTable(AsnTable.EMPTY);

  constructor(private readonly table: AsnTable) {}

  get size(): number {
    return this.table.size;
  }

  get(asn: number): string | undefined {
    const row = this.table.find(asn);
    const org = row < 0 ? '' : this.table.field(row, 0);
    return org === '' ? undefined : org;
  }
}

export const parseAsn2orgTsv = (content: string): OrgTable => new OrgTable(AsnTable.parse(content));

// --- the ASN classifier -------------------------------------------------------------------------

/**
 * bgp.tools tags of access (eyeball) networks. bgp.tools tags many big ISPs `vpsh` or `vpn`
 * because some customer runs a VPS or VPN exit there (KDDI, SoftBank, Bell Canada, China Unicom,
 * Korea Telecom carry both), so for ASN-level hosting and VPN signals the access tag wins:
 * flagging every subscriber of an ISP as hosting or VPN would be the worse error.
 */
const ACCESS_TAGS: ReadonlySet<string> = new Set(['dsl', 'mobile', 'perso', 'satnet', 'biznet']);
/** bgp.tools classes of networks that carry subscribers or transit: an ASN-level VPN claim is not believed for them. */
const ACCESS_CLASSES: ReadonlySet<string> = new Set(['Eyeball', 'Carrier', 'T1']);

const isAccess = (tags: readonly string[]): boolean => tags.some((t) => ACCESS_TAGS.has(t));

/** bgp.tools says "hosting" for this ASN (vpsh tag, not an access network). */
const bgpHosting = (tags: readonly string[]): boolean => tags.includes('vpsh') && !isAccess(tags);
/** bgp.tools tags the ASN `vpn` and it is neither an access network by tag nor by class (only with option bgpVpnTag). */
const bgpVpn = (tags: readonly string[], bgpClass: string | null): boolean =>
  tags.includes('vpn') && !isAccess(tags) && (bgpClass === null || !ACCESS_CLASSES.has(bgpClass));

// Keyword lists of the name fallback. Word-anchored where a bare substring would misfire
// ("sa" in "Nasa", "connect" in "Connecticut"); a suffix `net\b` is kept on purpose, since
// names like "Ukrnet" or "SkyNet Ltd" are overwhelmingly ISPs.
const EDUCATION = /\b(?:universi(?:t|dad)|college|colegio|school|schule|hochschule|fachhochschule|academ(?:y|ia|ic)|polytechni(?:c|que)|politecnico|institute of technology|research and education|education(?:al)? network|educa(?:tion|cion|ção)|edu\b|lyc[ée]e)/i;
const GOVERNMENT = /\b(?:ministry|ministerio|minist[èe]re|ministerium|government|gouvernement|gobierno|governo|regierung|bundesamt|department of|state of|city of|county|municipal(?:ity)?|municipio|prefecture|parliament|senate|police|polizei|armed forces|army|navy|air force|gov\b)/i;
const HOSTING = /(?:hosting|\bhost(?:s|ed|er)?\b|cloud|data ?cent(?:er|re)s?|rechenzentrum|\bservers?\b|\bvps\b|\bvds\b|\bcolo(?:cation)?\b|dedicated|\bcompute\b|web services|\bcdn\b|virtual(?:ization)?)/i;
const BUSINESS = /\b(?:bank(?:ing)?|banco|banque|insurance|versicherung|inc|corp|corporation|gmbh|ag|llc|ltd|limited|plc|s\.?a|s\.?p\.?a|b\.?v|n\.?v|holdings?|group|company|co)\b/i;
/** Words that make a company name an ISP's, whatever its legal form. */
const TELECOM = /(?:tele(?:com|kom|communication|fon|phon|net|visi)|telco|communications?\b|comunica|broadband|internet|network|net\b|cable|kabel|wireless|\bmobile?\b|cellular|fib(?:er|re|ra)\b|\bisp\b|dsl\b|online|provider|provedor|\bwisp\b|wi-?fi|\blink\b|connect(?:ion|ions|ivity|ed)?\b)/i;

/** The keyword half of the classifier: an organisation name alone. */
export function asnTypeFromName(name: string | null): AsnType {
  if (name === null || name.trim() === '') return 'isp';
  if (EDUCATION.test(name)) return 'education';
  if (GOVERNMENT.test(name)) return 'government';
  if (HOSTING.test(name)) return 'hosting';
  if (BUSINESS.test(name) && !TELECOM.test(name)) return 'business';
  return 'isp';
}

export interface AsnFacts {
  /** bgp.tools tags. */
  tags: readonly string[];
  bgpClass: string | null;
  /** On X4BNet's curated hosting or VPN-operator ASN list. */
  curatedHosting: boolean;
  /** Organisation name for the keyword fallback (or a function giving it, called only when needed). */
  name: string | null | (() => string | null);
}

/**
 * The ASN type, from the most specific evidence down:
 *
 * 1. bgp.tools tags `uni` -> education, `gov` -> government (checked first: a university network
 *    that also hosts a VPN exit is still a university).
 * 2. X4BNet's hand-curated hosting / VPN-operator ASN lists, and Vigil's anycast-infrastructure and
 *    VPN-operator ASNs (ip-infrastructure.ts: Cloudflare, Quad9, OpenDNS, Fastly, Akamai, Mullvad...) -> hosting.
 * 3. Access tags `dsl`, `mobile`, `perso`, `satnet` -> isp (they beat the automated `vpsh`/`vpn`
 *    tags, see ACCESS_TAGS).
 * 4. Tags `vpsh` or `cdn` -> hosting; `corp` -> business; `biznet` (business ISP) -> isp. The
 *    `vpn` tag says nothing here (it is on Rogers and Equinix as well as VPS hosts; see the file comment).
 * 5. bgp.tools class: Eyeball, Carrier, T1 -> isp; Content -> hosting.
 * 6. Keywords over the organisation name (asnTypeFromName): University/College/... -> education,
 *    Ministry/Government/... -> government, Hosting/Cloud/Datacenter/Server/VPS... -> hosting,
 *    Bank/Inc/Corp/GmbH/Ltd... without telecom words -> business, else isp (most ASNs that carry
 *    users are ISPs, and "isp" is the least alarming answer when nothing is known).
 */
export function classifyAsn(f: AsnFacts): AsnType {
  return classifyByEvidence(f) ?? asnTypeFromName(typeof f.name === 'function' ? f.name() : f.name);
}

/** Steps 1 to 5 of classifyAsn; null when tags, class and curated lists say nothing. */
function classifyByEvidence(f: Omit<AsnFacts, 'name'>): AsnType | null {
  const t = f.tags;
  if (t.includes('uni')) return 'education';
  if (t.includes('gov')) return 'government';
  if (f.curatedHosting) return 'hosting';
  if (t.includes('dsl') || t.includes('mobile') || t.includes('perso') || t.includes('satnet')) return 'isp';
  if (t.includes('vpsh') || t.includes('cdn')) return 'hosting';
  if (t.includes('corp')) return 'business';
  if (t.includes('biznet')) return 'isp';
  if (f.bgpClass === 'Eyeball' || f.bgpClass === 'Carrier' || f.bgpClass === 'T1') return 'isp';
  if (f.bgpClass === 'Content') return 'hosting';
  return null;
}

// --- loading --------------------------------------------------------------------------------------

export interface IpThreatDataOptions {
  /** DATA_DIR; null: nothing imported, every answer empty. */
  dataDir: string | null;
  /** How often to look for a new imported version (ms; 0: never, refresh() only). Default 5000. */
  reloadMs?: number;
  /** Count bgp.tools' `vpn` ASN tag as a VPN signal (see the file comment for why it is off by default). */
  bgpVpnTag?: boolean;
  onReloadError?: (err: unknown) => void;
}

export function loadIpThreatData(opts: IpThreatDataOptions): IpThreatData {
  const { dataDir, onReloadError } = opts;
  const useBgpVpnTag = opts.bgpVpnTag ?? false;
  const tor = new ImportedDataset<TorLists>(TOR_EXIT_NODES, dataDir, parseTorTsv, EMPTY_TOR, onReloadError);
  const x4b = new ImportedDataset<X4bLists>(VPN_DATACENTER_X4BNET, dataDir, parseX4bTsv, EMPTY_X4B, onReloadError);
  const cloud = new ImportedDataset<IpLabelIndex>(CLOUD_RANGES_JHASSINE, dataDir, parseLabelledTsv, IpLabelIndex.EMPTY, onReloadError);
  const ipcat = new ImportedDataset<IpLabelIndex>(DATACENTER_IPCAT, dataDir, parseLabelledTsv, IpLabelIndex.EMPTY, onReloadError);
  const icloud = new ImportedDataset<IpSet>(ICLOUD_PRIVATE_RELAY, dataDir, (c) => IpSet.build(c.split('\n')), IpSet.EMPTY, onReloadError);
  const bgp = new ImportedDataset<BgpTable>(ASN_BGPTOOLS, dataDir, parseBgpToolsTsv, BgpTable.EMPTY, onReloadError);
  const org = new ImportedDataset<OrgTable>(ASN_NAMES_ASN2ORG, dataDir, parseAsn2orgTsv, OrgTable.EMPTY, onReloadError);
  const all = [tor, x4b, cloud, ipcat, icloud, bgp, org] as const;
  for (const d of all) d.refresh();
  const stop = dataDir === null ? () => undefined : watchDatasets(all, opts.reloadMs ?? 5000);

  const source = (flag: ThreatSourceFlag, d: { readonly info: DatasetInfo }, detail?: string): ThreatSource =>
    detail === undefined || detail === '' ? { flag, dataset: d.info.name, version: d.info.version } : { flag, dataset: d.info.name, version: d.info.version, detail };

  return {
    match(ip: string, asn: number | null): ThreatMatch {
      const sources: ThreatSource[] = [];
      const torLists = tor.value;
      const isTor = torLists.exit.has(ip);
      if (isTor) sources.push(source('tor', tor, 'exit'));
      else if (torLists.relay.has(ip)) sources.push(source('tor', tor, 'relay'));

      const x = x4b.value;
      const bgpTable = bgp.value;
      const bgpRow = asn === null ? -1 : bgpTable.find(asn);
      const bgpTags = bgpTable.tags(bgpRow);
      const isRelay = icloud.value.has(ip);
      let vpn = false;
      if (!isRelay) {
        if (x.vpn.has(ip)) {
          vpn = true;
          sources.push(source('vpn', x4b, 'vpn range'));
        }
        if (asn !== null && x.vpnAsn.has(asn)) {
          vpn = true;
          sources.push(source('vpn', x4b, `AS${asn} (vpn-asn)`));
        }
        const operator = asn === null || x.vpnAsn.has(asn) ? undefined : VPN_OPERATOR_ASNS.get(asn);
        if (operator !== undefined) {
          vpn = true;
          sources.push({ flag: 'vpn', dataset: VPN_OPERATOR_ASNS_DATASET, version: IP_INFRASTRUCTURE_VERSION, detail: `AS${asn} (${operator})` });
        }
        if (useBgpVpnTag && asn !== null && bgpVpn(bgpTags, bgpTable.bgpClass(bgpRow))) {
          vpn = true;
          sources.push(source('vpn', bgp, `AS${asn} (tag vpn)`));
        }
      }

      let hosting = false;
      if (x.datacenter.has(ip)) {
        hosting = true;
        sources.push(source('hosting', x4b, 'datacenter range'));
      }
      const vendor = cloud.value.get(ip);
      if (vendor !== null) {
        hosting = true;
        sources.push(source('hosting', cloud, vendor));
      }
      const provider = ipcat.value.get(ip);
      if (provider !== null) {
        hosting = true;
        sources.push(source('hosting', ipcat, provider));
      }
      if (asn !== null && x.datacenterAsn.has(asn)) {
        hosting = true;
        sources.push(source('hosting', x4b, `AS${asn} (datacenter-asn)`));
      }
      if (asn !== null && bgpHosting(bgpTags)) {
        hosting = true;
        sources.push(source('hosting', bgp, `AS${asn} (tag vpsh)`));
      }

      if (!isRelay) {
        const resolver = ANYCAST_RESOLVERS.get(ip);
        const infra = asn === null ? undefined : ANYCAST_INFRASTRUCTURE_ASNS.get(asn);
        if (resolver !== null || infra !== undefined) {
          hosting = true;
          sources.push({ flag: 'hosting', dataset: ANYCAST_INFRASTRUCTURE_DATASET, version: IP_INFRASTRUCTURE_VERSION, detail: resolver ?? `AS${asn} (${infra})` });
        }
      }

      if (isRelay) sources.push(source('relay', icloud, 'iCloud Private Relay'));

      // Tor first (see the file comment).
      return { isTor, isProxy: vpn || isTor, proxyType: isTor ? 'TOR' : vpn ? 'VPN' : null, isHosting: hosting, isRelay, sources };
    },

    asn(n: number): AsnMeta | null {
      const r = bgp.value.get(n);
      const o = org.value.get(n);
      if (r === undefined && o === undefined) return null;
      return { asn: n, name: r?.name || null, org: o ?? null, bgpClass: r?.bgpClass ?? null, country: r?.cc ?? null, tags: r?.tags ?? NO_TAGS };
    },

    asnType(n: number, orgName: string | null): AsnType {
      const table = bgp.value;
      const row = table.find(n);
      const x = x4b.value;
      const tags = table.tags(row);
      const bgpClass = table.bgpClass(row);
      const curatedHosting = x.datacenterAsn.has(n) || x.vpnAsn.has(n) || ANYCAST_INFRASTRUCTURE_ASNS.has(n) || VPN_OPERATOR_ASNS.has(n);
      const byEvidence = classifyByEvidence({ tags, bgpClass, curatedHosting });
      if (byEvidence !== null) return byEvidence;
      // Only now the name: the caller's (GeoLite2), else asn2org's, else bgp.tools'.
      if (orgName !== null && orgName.trim() !== '') return asnTypeFromName(orgName);
      return asnTypeFromName(org.value.get(n) ?? (row < 0 ? null : table.get(n)?.name || null));
    },

    get datasets(): readonly DatasetInfo[] {
      return all.map((d) => d.info);
    },

    refresh(): void {
      for (const d of all) d.refresh();
    },

    close: stop,
  };
}
