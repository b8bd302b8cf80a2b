/**
 * The fields a custom rule may test, per group. A rule's subject is `{input, ...result}`, so a field
 * is a dot path into the group's result (spec result tables) or `input.<name>` for the request
 * input. Paths through an array (`rules.id`, `input.cart_items.item_price`) read that field of
 * every element. Saving a rule with a field not listed here is refused, which catches typos that
 * would otherwise make a rule silently never match.
 */
import { RULE_GROUPS, type RuleGroup } from '../types.ts';

/** What a field holds; `list` fields are arrays (or paths through one). Used by validation and docs. */
export type FieldType = 'string' | 'number' | 'boolean' | 'string|number' | 'list' | 'object';

export interface FieldInfo {
  path: string;
  type: FieldType;
}

type FieldTable = Partial<Record<FieldType, readonly string[]>>;

const under = (prefix: string, names: readonly string[]): string[] => names.map((n) => `${prefix}.${n}`);

const SUN_EVENTS = [
  'sunset', 'sunrise', 'transit', 'civilTwilightBegin', 'civilTwilightEnd', 'nauticalTwilightBegin',
  'nauticalTwilightEnd', 'astronomicalTwilightBegin', 'astronomicalTwilightEnd', 'dayLength',
];

const IP: FieldTable = {
  string: [
    'input.ip',
    'ip', 'ipType', 'continentName', 'continentCode', 'countryCode', 'countryName', 'regionName', 'cityName',
    'zipCode', 'latitude', 'longitude',
    'location.capital', 'location.phoneCode', 'location.countryNeighbours', 'location.tld',
    ...under('location.language', ['name', 'code', 'native']),
    ...under('location.flag', ['emoji', 'unicode', 'svg', 'png.1000px', 'png.250px', 'png.100px']),
    ...under('currency', ['currencyName', 'currencyCode', 'currencySymbol']),
    ...under('asn', ['asn', 'name', 'org', 'domain', 'phone', 'email', 'created', 'type']),
    ...under('timezone', ['name', 'abbreviation', 'currentTime']),
    ...under('timezone.sunInfo', SUN_EVENTS),
    'security.proxyType',
    'device.type',
    ...under('device.OS', ['type', 'name', 'family', 'version', 'title']),
    ...under('device.browser', ['name', 'title']),
  ],
  number: [
    'IPNumber', 'continentGeoNameID', 'countryGeoNameID', 'location.population', 'location.accuracyRadius', 'timezone.offset',
    'timezone.currentTimestamp', 'device.OS.64bits_mode', 'device.browser.version', 'device.browser.versionMajor',
  ],
  boolean: [
    'bogon', 'location.countryIsEU', 'timezone.isDST', 'device.isMobile',
    ...under('security', ['isProxy', 'isTor', 'isBot', 'isRelay', 'isHosting', 'blacklisted']),
  ],
};

const BIN: FieldTable = {
  string: [
    'input.bin',
    'reason', 'bin', 'info.detected_digits', 'info.syntax.code.name',
    ...under('info.scheme', ['name', 'coName', 'type', 'brand', 'currency']),
    ...under('info.bank', ['id', 'identifier', 'name', 'city', 'url', 'phone', 'logo', 'latitude', 'longitude']),
    ...under('info.country', ['alpha2', 'name', 'code', 'numeric', 'emoji', 'continent', 'languageCode', 'languageNative', 'source']),
  ],
  number: ['info.syntax.code.size'],
  boolean: ['isValid', 'blacklisted', ...under('info.scheme', ['isLuha', 'isPrepaid', 'isCommercial'])],
  list: ['info.syntax.gaps', 'info.syntax.lengths'],
};

const IBAN: FieldTable = {
  string: [
    'input.iban',
    ...under('formats', ['machine', 'human', 'obfuscated']),
    ...under('country', ['name', 'IANA', 'ISO3166', 'currency', 'membership', 'length', 'centralBank.name', 'centralBank.url']),
    ...under('bank', ['code', 'name', 'nameAr', 'swift', 'mergedInto']),
  ],
  boolean: ['isValid', ...under('country', ['isEU', 'isSEPA', 'swiftOfficial'])],
  // `bank` is null outside the Gulf countries: `{field: "bank", op: "exists"}` tells them apart.
  object: ['bank'],
};

const PHONE: FieldTable = {
  string: ['input.phone', 'input.countryCode', 'carrier', 'reason', 'phone', 'countryCode', 'lineType'],
  boolean: ['isValid', 'blacklisted', 'disposable'],
};

const EMAIL: FieldTable = {
  string: ['input.email', 'reason', 'email', 'suggestion', 'normalized', 'domain.name', 'domain.created_at'],
  number: ['score'],
  boolean: [
    'isValid', 'isFree', 'isRoleBased', 'isEducational', 'isDisposable', 'blacklisted', 'isGibberish',
    ...under('domain', ['is_dangerous', 'is_spf', 'is_dmarc', 'is_dkim', 'is_mx', 'is_bimi', 'is_new']),
  ],
};

const PAYMENT: FieldTable = {
  string: under('input', [
    'action', 'website_domain', 'website_name', 'transaction_currency', 'coupon',
    'customer_firstname', 'customer_lastname', 'customer_pob', 'customer_ip', 'customer_country',
    'customer_region', 'customer_city', 'customer_street', 'customer_street2', 'customer_dob',
    'customer_email', 'customer_useragent',
    'shipping_country', 'shipping_region', 'shipping_city', 'shipping_street', 'shipping_street2',
    'billing_country', 'billing_region', 'billing_city', 'billing_street', 'billing_street2',
    'payment_type', 'card_name',
  ]),
  'string|number': under('input', [
    'merchant_id', 'shipment_id', 'transaction_id', 'transaction_amount', 'customer_id', 'customer_zip',
    'customer_device_id', 'customer_phone', 'customer_balance', 'shipping_zip', 'billing_zip', 'card_number',
  ]),
  number: [
    'score', 'rulesChecked', 'rulesDetected',
    ...under('input', [
      'customer_latitude', 'customer_longitude', 'customer_registration_date',
      'shipping_latitude', 'shipping_longitude', 'billing_latitude', 'billing_longitude',
    ]),
  ],
  boolean: under('input', ['isDigitalProducts', 'customer_2fa', 'cvv_result']),
  // `rules` holds the fired payment rules: `{field: "rules", op: "contains", value: "PF10003"}`.
  list: [
    'rules', 'rules.id', 'rules.description', 'input.cart_items',
    ...under('input.cart_items', ['item_id', 'item_name', 'item_quantity', 'item_price', 'item_category_id']),
  ],
};

/** The raw tables, one per group. */
export const FIELD_TABLES: Readonly<Record<RuleGroup, Readonly<FieldTable>>> = {
  ip: IP, email: EMAIL, phone: PHONE, bin: BIN, iban: IBAN, payment: PAYMENT,
};

function index(table: FieldTable): ReadonlyMap<string, FieldType> {
  const map = new Map<string, FieldType>();
  for (const [type, paths] of Object.entries(table) as Array<[FieldType, readonly string[]]>) {
    for (const path of paths) {
      // A path listed twice (perhaps with two types) is a table typo: fail at load, not at request time.
      if (map.has(path)) throw new Error(`rule field "${path}" is listed twice`);
      map.set(path, type);
    }
  }
  return map;
}

const FIELDS = Object.fromEntries(RULE_GROUPS.map((g) => [g, index(FIELD_TABLES[g])])) as Record<RuleGroup, ReadonlyMap<string, FieldType>>;

/** True when rules of `group` may test `path`. */
export function isKnownField(group: RuleGroup, path: string): boolean {
  return FIELDS[group].has(path);
}

/** The type of a known field, undefined for an unknown one. */
export function fieldType(group: RuleGroup, path: string): FieldType | undefined {
  return FIELDS[group].get(path);
}

/** Every field of a group, sorted by path (for error messages and docs). */
export function listFields(group: RuleGroup): FieldInfo[] {
  return [...FIELDS[group]].map(([path, type]) => ({ path, type })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
