/** Shared test inputs for the format writers: awkward `data` values and envelopes. */

/** A named `data` value exercising one awkward case. */
export interface DataCase {
  name: string;
  data: unknown;
}

/** An IP result shaped like the spec's, with the awkward keys it really has. */
export const IP_RESULT = {
  ip: '1.1.1.1',
  ipType: 'IPv4',
  IPNumber: 16843009,
  bogon: false,
  countryCode: 'AU',
  regionName: 'Queensland',
  cityName: 'South Brisbane',
  zipCode: null,
  latitude: '-27.4766',
  longitude: '153.0166',
  location: {
    capital: 'Canberra',
    population: 25_687_041,
    language: { name: 'English', code: 'en', native: 'English' },
    flag: {
      emoji: '🇦🇺',
      unicode: 'U+1F1E6 U+1F1FA',
      png: { '1000px': 'https://cdn/flags/1000/au.png', '250px': 'https://cdn/flags/250/au.png', '100px': 'https://cdn/flags/100/au.png' },
      svg: 'https://cdn/flags/au.svg',
    },
    phoneCode: '+61',
    countryIsEU: false,
    countryNeighbours: '',
  },
  currency: { currencyName: 'Australian Dollar', currencyCode: 'AUD', currencySymbol: '$' },
  asn: { asn: 'AS13335', name: 'CLOUDFLARENET', phone: null, email: null, created: '2010-07-14', type: 'hosting' },
};

/** Table of awkward `data` values; every format must round-trip each of them. */
export const DATA_CASES: DataCase[] = [
  { name: 'IP result', data: IP_RESULT },
  { name: 'deeply nested object', data: { a: { b: { c: { d: 1 } } }, e: 2 } },
  { name: 'array of primitives', data: { tags: ['vpn', 'tor', 1, true, null], none: [] } },
  { name: 'array of objects and arrays', data: { results: [{ index: 0, kind: 'payment' }, [1, 2], { nested: { x: 'y' } }] } },
  { name: 'null and booleans', data: { yes: true, no: false, nothing: null } },
  { name: 'numbers', data: { zero: 0, negZero: -0, int: 42, float: 1.5, neg: -33.86, big: 1e21, small: 5e-7 } },
  { name: 'unicode and emoji', data: { city: 'Zürich', tokyo: '東京', flag: '🇩🇪', family: '👨‍👩‍👧', combining: 'e\u0301' } },
  { name: 'RTL text', data: { ar: 'القاهرة', he: 'שלום עולם', mixed: 'abc القاهرة 123' } },
  { name: 'markup and quotes', data: { html: '<script>alert("x")</script>', amp: 'AT&T', apos: "O'Brien", cdata: ']]>' } },
  { name: 'line breaks', data: { lf: 'line1\nline2', crlf: 'a\r\nb', cr: 'x\ry', trailing: 'end\n' } },
  { name: 'commas and quotes', data: { csv: 'a,b', quoted: 'say "hi"', both: '"a","b"', spaces: '  padded  ' } },
  { name: 'backslashes', data: { path: 'C:\\temp\\new', escaped: 'a\\nb' } },
  { name: 'formula prefixes', data: { eq: '=SUM(A1:A2)', plus: '+1 555', minus: '-cmd', at: '@import', num: -5, safe: 'a=b' } },
  { name: 'keys that are not XML names', data: { '1000px': 'a', '-dash': 'b', '.dot': 'c', 'with space': 'd', 'ns:tag': 'e', xmlThing: 'f', '64bits_mode': 'g', 'ok-name.x': 'h', 'Ünïcode': 'i' } },
  { name: 'empty nested object', data: { explanation: {}, after: 1 } },
  { name: 'empty string', data: { empty: '', zipCode: null } },
];

/** Success envelope around `data`, in the order the handlers build it. */
export function success(data: unknown): Record<string, unknown> {
  return { data, status: 'success', executionTime: 7 };
}

/** The error envelope of code 112. */
export const ERROR_BODY = {
  status: 'error',
  code: 112,
  type: 'invalid_ip',
  description: 'The IP address is empty or malformed. Send a valid IPv4 or IPv6 address.',
};

/** Bulk IP lookup data: keyed by address as submitted, including IPv6. */
export const BULK_DATA = {
  '1.1.1.1': IP_RESULT,
  '2001:db8::1': { ip: '2001:db8::1', ipType: 'IPv6', bogon: true, zipCode: null },
  '=cmd': { ip: '=cmd', extra: 'only here' },
};
