/**
 * Is a shipping place a package forwarder / reshipper? A pure matcher over a curated list of
 * published forwarding warehouses (`kind: 'address'`) and postal codes where forwarders
 * concentrate (`kind: 'zip'`). The list lives in src/data/reshippers.csv (see docs/reshippers.md);
 * this module only normalises and looks up.
 *
 * Two strengths, never mixed up:
 * - `address`: same country, same postal code, same house number and street name as a published
 *   warehouse. The customer's suite / box / unit number is ignored (every customer of the service
 *   has a different one), so "3501 Jack Northrop Ave Suite #AB123" matches "3501 Jack Northrop Ave".
 * - `zip`: same country and postal code as a listed forwarder ZIP or as a warehouse, but not the
 *   warehouse's street address. Homes share those codes, so it is weaker evidence.
 */

export type ReshipperKind = 'address' | 'zip';

/** One curated or imported entry. `street` is empty for `zip` entries. */
export interface ReshipperEntry {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string;
  /** Postal code as published (normalised only for lookup). */
  readonly zip: string;
  readonly street: string;
  readonly city: string;
  readonly region: string;
  /** The forwarding service's name (MyUS, Shipito...). */
  readonly service: string;
  readonly kind: ReshipperKind;
  /** Where the entry was found: page title and URL, date looked. Empty when the operator's list gave none. */
  readonly source: string;
}

/** A shipping place as a payment carries it; every field optional. */
export interface ShippingPlace {
  readonly country?: string | null | undefined;
  readonly zip?: string | null | undefined;
  readonly street?: string | null | undefined;
  readonly street2?: string | null | undefined;
  readonly city?: string | null | undefined;
  readonly region?: string | null | undefined;
}

export interface ReshipperMatch {
  readonly kind: ReshipperKind;
  readonly service: string;
  readonly source?: string;
}

export interface ReshipperIndex {
  /** Entries indexed. */
  readonly size: number;
  /** The strongest match for the place (an address beats a ZIP), or null. */
  match(place: ShippingPlace): ReshipperMatch | null;
}

/** Countries that use US ZIP codes (ZIP+4 folds to its first five digits). */
const US_ZIP_COUNTRIES = new Set(['US', 'PR', 'VI', 'GU', 'AS', 'MP', 'UM']);

/** Upper-case ISO alpha-2, or '' when the text is not two letters ('UK' is read as GB). */
export function normalizeCountry(country: string | null | undefined): string {
  const c = (country ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(c)) return '';
  return c === 'UK' ? 'GB' : c;
}

/**
 * The lookup form of a postal code: US ZIPs (and ZIP+4) to five digits, every other country upper
 * case without spaces or hyphens ("pr3 1nj" and "PR31NJ" both give "PR31NJ"). '' when unusable.
 */
export function normalizePostcode(country: string, zip: string | null | undefined): string {
  const raw = (zip ?? '').trim().toUpperCase();
  if (raw === '') return '';
  if (US_ZIP_COUNTRIES.has(country)) {
    const m = /^(\d{5})(?:[\s-]*\d{4})?$/.exec(raw);
    return m?.[1] ?? '';
  }
  const compact = raw.replace(/[\s-]+/g, '');
  return /^[A-Z0-9]{2,10}$/.test(compact) ? compact : '';
}

/** USPS-style suffix abbreviations (Publication 28) and a few British ones, full word → short form. */
const SUFFIXES: Readonly<Record<string, string>> = {
  STREET: 'ST', STR: 'ST', AVENUE: 'AVE', AV: 'AVE', AVEN: 'AVE', ROAD: 'RD', DRIVE: 'DR', DRV: 'DR', LANE: 'LN',
  BOULEVARD: 'BLVD', BOUL: 'BLVD', HIGHWAY: 'HWY', HIWAY: 'HWY', PARKWAY: 'PKWY', PKY: 'PKWY', COURT: 'CT',
  PLACE: 'PL', TERRACE: 'TER', CIRCLE: 'CIR', EXPRESSWAY: 'EXPY', FREEWAY: 'FWY', TURNPIKE: 'TPKE', SQUARE: 'SQ',
  PLAZA: 'PLZ', TRAIL: 'TRL', CRESCENT: 'CRES', CLOSE: 'CL', GARDENS: 'GDNS', GROVE: 'GRV', WAY: 'WAY',
  CENTER: 'CTR', CENTRE: 'CTR', PIKE: 'PIKE', LOOP: 'LOOP', ROUTE: 'RTE', PARK: 'PARK', ALLEY: 'ALY',
};
const SUFFIX_FORMS = new Set(Object.values(SUFFIXES));

/** Directionals are dropped from the key: users omit or misplace them, and within one postal code they rarely tell two streets apart. */
const DIRECTIONALS = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW', 'NORTH', 'SOUTH', 'EAST', 'WEST', 'NORTHEAST', 'NORTHWEST', 'SOUTHEAST', 'SOUTHWEST']);

/** Words that start the customer's own unit / box designation: it and everything after it are not the street. */
const UNIT_WORDS = new Set(['STE', 'SUITE', 'UNIT', 'APT', 'APARTMENT', 'BOX', 'PMB', 'MAILBOX', 'LOCKER', 'FLAT', 'RM', 'ROOM', 'FL', 'FLOOR', 'DEPT', 'NO', 'NUMBER', 'LOT', 'SPC', 'SPACE', 'TRLR', 'OFC', 'OFFICE']);

/** A street line reduced to what identifies the building: house number and street name tokens. */
export interface StreetKey {
  readonly number: string;
  /** Name tokens (directionals removed, suffix abbreviated, ordinals as bare numbers). */
  readonly name: readonly string[];
  /** Whether the last name token is a street type (ST, AVE...). */
  readonly typed: boolean;
}

/**
 * Parses one address line ("17224 S. Figueroa Street #A1234") into its house number and street
 * name, dropping the customer's suite/unit/box designation; null when the line has no house number
 * followed by a name (a bare "Suite 100", a PO box).
 */
export function parseStreet(line: string | null | undefined): StreetKey | null {
  const text = (line ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    // '#' always starts a unit ("#A1234", "# 12"); cut there rather than treat it as punctuation.
    .replace(/#.*$/, '')
    .replace(/[.,;:'"()/\\]+/g, ' ')
    .trim();
  if (text === '') return null;
  const tokens = text.split(/\s+/);
  let i = 0;
  // A leading unit designation ("Suite 5, 123 Main St" or "Unit 4 12 High St"): skip word and value.
  while (i < tokens.length && UNIT_WORDS.has(tokens[i] as string) && i + 1 < tokens.length) i += 2;
  const numberToken = tokens[i];
  if (numberToken === undefined) return null;
  // "123", "123A", "123-125" (a range: its first number is the building's).
  const num = /^(\d+)(?:-\d+)?[A-Z]?$/.exec(numberToken);
  if (num === null) return null;
  const name: string[] = [];
  for (i++; i < tokens.length; i++) {
    const t = tokens[i] as string;
    if (UNIT_WORDS.has(t)) break;
    const ord = /^(\d+)(?:ST|ND|RD|TH)$/.exec(t);
    const word = ord ? (ord[1] as string) : (SUFFIXES[t] ?? t);
    if (t.includes('-') && !/^[A-Z]+(?:-[A-Z]+)+$/.test(t)) break; // "A-1234": a box code, not a hyphenated name
    if (DIRECTIONALS.has(word)) continue;
    name.push(word);
    // The street type ends the name: what follows is a suite ("123 Main St 4500") or the city
    // and state of a whole address typed on one line ("8540 NW 66 St Miami FL").
    if (name.length > 1 && SUFFIX_FORMS.has(word)) break;
  }
  if (name.length === 0) return null;
  const last = name[name.length - 1] as string;
  return { number: num[1] as string, name, typed: name.length > 1 && SUFFIX_FORMS.has(last) };
}

/** The keys a parsed street is indexed and looked up under: with its type, and (when typed) without it. */
function streetKeys(key: StreetKey): { full: string; bare: string } {
  const bareName = key.typed ? key.name.slice(0, -1) : key.name;
  return { full: `${key.number} ${key.name.join(' ')}`, bare: `${key.number} ${bareName.join(' ')}` };
}

interface ZipBucket {
  /** A `zip` entry for this code, or the first warehouse in it (a home nearby matches as `zip`). */
  zip: ReshipperEntry | null;
  /** Warehouses by full street key (number + name + type). */
  full: Map<string, ReshipperEntry>;
  /** Warehouses by street key without its type, for lines that omit it ("3501 Jack Northrop"). */
  bare: Map<string, ReshipperEntry>;
}

const toMatch = (e: ReshipperEntry, kind: ReshipperKind): ReshipperMatch => (e.source === '' ? { kind, service: e.service } : { kind, service: e.service, source: e.source });

/** Builds the lookup index; entries that cannot be keyed (no usable country/ZIP, unparsable street) are skipped. */
export function buildReshipperIndex(entries: readonly ReshipperEntry[]): ReshipperIndex {
  const buckets = new Map<string, ZipBucket>();
  let size = 0;
  for (const e of entries) {
    const country = normalizeCountry(e.country);
    const zip = normalizePostcode(country, e.zip);
    if (country === '' || zip === '') continue;
    const id = `${country} ${zip}`;
    let b = buckets.get(id);
    if (b === undefined) buckets.set(id, (b = { zip: null, full: new Map(), bare: new Map() }));
    if (e.kind === 'zip') {
      // An explicit ZIP entry names the ZIP's service better than a warehouse that happens to be there.
      if (b.zip === null || b.zip.kind !== 'zip') b.zip = e;
      size++;
      continue;
    }
    const key = parseStreet(e.street);
    if (key === null) continue;
    const { full, bare } = streetKeys(key);
    if (!b.full.has(full)) b.full.set(full, e);
    if (!b.bare.has(bare)) b.bare.set(bare, e);
    b.zip ??= e;
    size++;
  }
  return {
    size,
    match(place: ShippingPlace): ReshipperMatch | null {
      const country = normalizeCountry(place.country);
      if (country === '') return null;
      const zip = normalizePostcode(country, place.zip);
      if (zip === '') return null;
      const b = buckets.get(`${country} ${zip}`);
      if (b === undefined) return null;
      // Customers put the warehouse street on either line (line 1 is often the suite code).
      for (const line of [place.street, place.street2]) {
        const key = parseStreet(line);
        if (key === null) continue;
        const { full, bare } = streetKeys(key);
        const hit = b.full.get(full) ?? (key.typed ? undefined : b.bare.get(bare));
        if (hit !== undefined) return toMatch(hit, 'address');
      }
      return b.zip === null ? null : toMatch(b.zip, 'zip');
    },
  };
}
