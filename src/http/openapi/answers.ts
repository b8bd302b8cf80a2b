/**
 * The `data` of each method's success envelope, as JSON Schema. Keyed by operation so that the compiler
 * refuses an operation without one. Shapes follow the engines' result types and the spec's resource
 * tables; test/http/openapi-responses.test.ts checks real answers of every method against them with every
 * object closed (a field the code adds without documenting it fails that test).
 */
import type { JsonSchema } from '../endpoint.ts';
import type { OperationName } from '../operations.ts';
import { arr, bool, int, nullable, num, obj, oneOfValues, ref, str } from './schema-kit.ts';
import { customRules } from './shared-schemas.ts';
import { PAYMENT_OUTCOMES } from '../../store/learning-ports.ts';
import { FEEDBACK_LABELS, FEEDBACK_TYPES } from '../../learning/feedback-input.ts';

const ASN_TYPES = ['isp', 'hosting', 'business', 'education', 'government'] as const;
const LINE_TYPES = ['mobile', 'fixed_line', 'fixed_line_or_mobile', 'voip', 'toll_free', 'premium_rate', 'shared_cost', 'personal_number', 'pager', 'uan', 'voicemail', 'unknown'] as const;
/** A module's block is absent unless asked for in `params` (or null where no data places the address). */
const IP_MODULE_FIELDS = ['location', 'currency', 'timezone', 'security', 'device'];
const sn = (d?: string) => nullable(str(d));
const inn = (d?: string) => nullable(int(d));
const bn = (d?: string) => nullable(bool(d));

const securityBlock = obj({
  isProxy: bool(), proxyType: sn('Kind of proxy, such as VPN'), isTor: bool(), isBot: bool(), isRelay: bool('Privacy relay'), isHosting: bool(),
  blacklisted: bool('A custom rule or one of the account\'s blacklists matched'), custom_rules_applied: customRules,
  riskScore: int('0-100, after the account\'s lists, rules and labels: the score behind the suspicious_ip event (docs/ip.md)'),
});

const deviceBlock = obj(
  {
    isMobile: bool(), type: str('desktop, mobile, tablet, smarttv, console, wearable, embedded, bot or unknown'),
    OS: obj({ type: str(), name: str(), family: str(), version: str(), title: str(), '64bits_mode': { type: 'integer', enum: [0, 1] } }),
    browser: obj({ name: str(), version: num('major.minor'), versionMajor: str(), title: str() }),
  },
  { description: 'Parsed from the request\'s User-Agent (geoip only, device module).' },
);

const ipResult = obj(
  {
    ip: str(), ipType: oneOfValues(['IPv4', 'IPv6']), IPNumber: int('Numeric form of the address; an IPv6 value is above 2^53, so JSON parsers hold it approximately'),
    bogon: bool('Private or reserved address that cannot be placed'),
    continentName: sn(), continentCode: sn(), continentGeoNameID: inn(), countryCode: sn('ISO 3166-1 alpha-2'), countryName: sn(), countryGeoNameID: inn(),
    regionName: sn(), cityName: sn(), zipCode: sn('Approximate; null where no postal data exists'), latitude: sn(), longitude: sn(),
    location: nullable(obj(
      { capital: sn(), population: inn(), language: nullable(ref('Language')), flag: nullable(ref('Flag')), phoneCode: sn(), countryIsEU: bool(), countryNeighbours: str('Comma-separated country codes'), tld: sn(),
        accuracyRadius: inn('GeoLite2 accuracy radius around latitude/longitude, in km; null when the data gives none') },
    )),
    currency: nullable(ref('Currency')),
    asn: obj({
      asn: sn('AS number, such as AS15169'), name: sn(), org: sn(), domain: sn(), phone: sn('Registry contact; null when none is published'),
      email: sn('Registry contact; null when none is published'), created: sn('Date'), type: nullable(oneOfValues(ASN_TYPES)),
    }),
    timezone: nullable(ref('Timezone')),
    security: securityBlock,
    device: deviceBlock,
    custom_rules_applied: customRules,
    explanation: ref('Explanation'),
  },
  { optional: [...IP_MODULE_FIELDS, 'explanation'] },
);

const paymentFeedbackResult = obj({
  transaction_id: str(), outcome: oneOfValues(PAYMENT_OUTCOMES), status: oneOfValues(['applied', 'pending']),
  matched: int('Scorings of this transaction_id updated'), label: oneOfValues(['created', 'updated', 'unchanged']),
});
const labelFeedbackResult = obj(
  { type: oneOfValues(FEEDBACK_TYPES), value: str('Masked: only a keyed hash is stored'), event_id: int(), label: oneOfValues(FEEDBACK_LABELS), status: oneOfValues(['created', 'updated', 'unchanged']) },
  { optional: ['type', 'value', 'event_id'], description: 'type and value for a label by identity; event_id for a label by event.' },
);
/** A bulk result: `index` and `kind`, then the item's own result, or the item's error (it does not stop the others). */
function bulkItems(kind: 'payment' | 'event', result: JsonSchema): JsonSchema[] {
  const head = { index: int('Position in `items`'), kind: { const: kind } };
  const own = result.properties as Record<string, JsonSchema>;
  return [
    obj({ ...head, ...own }, { optional: Object.keys(own).filter((k) => !(result.required as string[]).includes(k)) }),
    obj({ ...head, status: { const: 'error' }, code: int('131, or 132'), description: str() }, { description: 'A rejected item' }),
  ];
}

export const ANSWERS = {
  'ip.self': str('The caller\'s IP address (after TRUST_PROXY)'),
  geoip: ipResult,
  'lookup.ip': ipResult,
  'lookup.ip.bulk': { type: 'object', description: 'One IP result per address, keyed by the address as sent', additionalProperties: ipResult },
  'lookup.ip.threats': obj({
    ip: str(),
    threats: obj({ isProxy: bool(), proxyType: sn(), isTor: bool(), isBot: bool(), isRelay: bool(), isHosting: bool(), blacklisted: bool() }),
    custom_rules_applied: customRules,
  }),
  'lookup.asn': obj({
    asn: str('Such as AS13335'), name: sn(), country: sn(), org: sn(), phone: sn(), email: sn(), domain: sn(), status: sn(), created: sn('Date'),
    type: nullable(oneOfValues(ASN_TYPES)), registry: sn('Regional internet registry'),
    prefixes: obj({ ipv4: arr(str()), ipv6: arr(str()), total: int() }),
  }),
  'lookup.country': obj(
    {
      countryCode: str(), countryName: str(), countryGeoNameID: inn(), capital: sn(), population: inn(), phoneCode: sn('No plus sign'),
      currency: nullable(ref('Currency')), language: nullable(ref('Language')), timezone: nullable(ref('Timezone')), flag: nullable(ref('Flag')),
      countryIsEU: bool(), countryNeighbours: str('Comma-separated country codes'), tld: sn(), continentName: str(), continentCode: str(), continentGeoNameID: int(),
    },
    { optional: ['currency', 'language', 'timezone', 'flag'] },
  ),
  'lookup.bin': obj({
    reason: str('Why the BIN is invalid; empty when valid'), isValid: bool(), blacklisted: bool(), bin: str('As sent'),
    info: obj({
      scheme: obj({ name: sn(), coName: sn('Co-badged scheme'), isLuha: bool(), isPrepaid: bool(), isCommercial: bool(), type: sn('debit, credit or charge'), brand: sn(), currency: sn() }),
      detected_digits: str(),
      syntax: obj({ gaps: arr(int()), lengths: arr(int()), code: obj({ name: str('Such as CVV'), size: int() }) }),
      bank: nullable(obj({ id: sn(), identifier: sn(), name: sn(), city: sn(), url: sn(), phone: sn(), logo: sn(), latitude: sn(), longitude: sn() })),
      country: nullable(obj({
        alpha2: str(), name: str(), code: sn('Dialing code'), numeric: sn(), emoji: str(), continent: str(), languageCode: sn(), languageNative: sn(),
        source: oneOfValues(['issuer', 'scheme'], 'issuer: the imported record; scheme: a domestic scheme\'s country'),
      })),
    }),
    custom_rules_applied: customRules,
  }),
  'lookup.domain': obj({
    name: str(), is_dangerous: bool(), is_disposable: bool(), is_forwarding: bool(), is_spf: bn(), is_dmarc: bn(), is_dkim: bn(), is_mx: bn(), is_bimi: bn(),
    created_at: sn('Registration date'), is_new: bn('Registered within 1 year'),
  }),
  'lookup.iban': obj({
    isValid: bool('Country code, length and check digits all pass'),
    formats: obj({ machine: str(), human: str('Groups of four'), obfuscated: str() }),
    country: obj({
      name: sn(), IANA: str(), ISO3166: str(), currency: sn(), centralBank: obj({ name: sn(), url: sn() }), membership: sn(),
      isEU: bool(), isSEPA: bool(), swiftOfficial: bool(), length: str('Expected IBAN length'),
    }),
    bank: nullable(obj({ code: str(), name: str(), nameAr: sn(), swift: sn(), mergedInto: sn() }, { description: 'Identified from the national bank code for SA, AE, KW, BH, QA and JO; null elsewhere' })),
    custom_rules_applied: customRules,
  }),
  'scoring.profanity': obj(
    {
      isML: bool('The machine-learning model took part'), text: str('As sent'), totalBadWords: nullable(num('null unless isML')),
      riskScore: num('0 clean to 1'), isSafe: bool('false from 0.5'), badWords: arr(str(), 'With listBadWords=yes: the offending words as written'),
    },
    { optional: ['isML', 'text', 'totalBadWords', 'badWords'], description: 'With scoreOnly=yes only riskScore and isSafe (and badWords with listBadWords=yes).' },
  ),
  'scoring.email': obj({
    score: int('0 safe, 1 low risk, 2 high risk, 3 too risky'), reason: str('Empty when score is 0'), isValid: bool(), isFree: bool('Webmail'),
    isRoleBased: bool(), isEducational: bool(), isDisposable: bool(), blacklisted: bool(), email: str('As sent'),
    suggestion: sn('Corrected address when the domain looks like a typo of a major provider'), isGibberish: bool(), normalized: str(),
    domain: obj({ name: str(), is_dangerous: bool(), is_spf: bn(), is_dmarc: bn(), is_dkim: bn(), is_mx: bn(), is_bimi: bn(), created_at: sn(), is_new: bn() }),
    custom_rules_applied: customRules,
  }),
  'scoring.phone': obj({
    carrier: str('May be empty'), reason: str('Empty when valid'), isValid: bool(), blacklisted: bool(), disposable: bool(), phone: str('Normalised number'),
    countryCode: str('As sent'), lineType: oneOfValues(LINE_TYPES), custom_rules_applied: customRules,
  }),
  'scoring.payment': obj({
    score: num('0 to 100'), rules: arr(obj({ id: str('Such as PF10003'), description: str() }), 'Rules that fired'), rulesChecked: int(), rulesDetected: int(),
    custom_rules_applied: customRules,
  }),
  'account.users.delete': obj({
    transaction_data: int(), ips: int(), profanity_data: int(), emails: int(), phone_numbers: int(), ibans: int(),
  }, { description: 'Counts of removed records; 0 means nothing existed in that category.' }),
  'feedback.payment': paymentFeedbackResult,
  'feedback.event': labelFeedbackResult,
  'feedback.bulk': obj({
    received: int(), created: int(), updated: int(), unchanged: int(), pending: int(), failed: int(),
    results: arr({ anyOf: [...bulkItems('payment', paymentFeedbackResult), ...bulkItems('event', labelFeedbackResult)] }, 'One per item, in order'),
  }),
} as const satisfies Record<OperationName, JsonSchema>;
