import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildReshipperIndex, normalizePostcode, parseStreet, type ReshipperEntry, type ShippingPlace } from './reshipper.ts';

const entry = (e: Partial<ReshipperEntry> & Pick<ReshipperEntry, 'country' | 'zip' | 'kind' | 'service'>): ReshipperEntry => ({ street: '', city: '', region: '', source: '', ...e });

const index = buildReshipperIndex([
  entry({ country: 'US', zip: '90250', street: '3501 Jack Northrop Ave', kind: 'address', service: 'Shipito', source: 'shipito faq' }),
  entry({ country: 'US', zip: '90248', street: '17224 S. Figueroa Street', kind: 'address', service: 'Planet Express' }),
  entry({ country: 'US', zip: '33195-2698', street: '8540 NW 66 St', kind: 'address', service: 'Aeropaq' }),
  entry({ country: 'US', zip: '33126', street: '6703 NW 7th St', kind: 'address', service: 'Aeropost' }),
  entry({ country: 'US', zip: '19720', kind: 'zip', service: 'Qwintry' }),
  entry({ country: 'GB', zip: 'pr3 1nj', street: '12 Green Lane West', kind: 'address', service: 'UK forwarder' }),
  entry({ country: 'CA', zip: 'K1A 0B1', kind: 'zip', service: 'CA forwarder' }),
  // A ZIP entry and a warehouse in the same code: the ZIP entry names the zip-level match.
  entry({ country: 'US', zip: '33166', street: '2000 NW 84th Ave', kind: 'address', service: 'Warehouse A' }),
  entry({ country: 'US', zip: '33166', kind: 'zip', service: 'Doral cluster' }),
]);

describe('reshipper matcher', () => {
  const cases: Array<[string, ShippingPlace, { kind: 'address' | 'zip'; service: string } | null]> = [
    // Address matches: suite numbers, abbreviations, case, ZIP+4, the street on line 2.
    ['published form', { country: 'US', zip: '90250', street: '3501 Jack Northrop Ave' }, { kind: 'address', service: 'Shipito' }],
    ['suite on line 1', { country: 'us', zip: '90250', street: '3501 Jack Northrop Avenue Suite #ABC123' }, { kind: 'address', service: 'Shipito' }],
    ['street type omitted', { country: 'US', zip: '90250-1234', street: '3501 jack northrop' }, { kind: 'address', service: 'Shipito' }],
    ['suite as line 1, street as line 2', { country: 'US', zip: '90250', street: 'Suite 4512', street2: '3501 Jack Northrop Ave.' }, { kind: 'address', service: 'Shipito' }],
    ['#box glued to the street', { country: 'US', zip: '90248', street: '17224 S Figueroa St #A1234' }, { kind: 'address', service: 'Planet Express' }],
    ['directional dropped', { country: 'US', zip: '90248', street: '17224 Figueroa St. Unit A1234' }, { kind: 'address', service: 'Planet Express' }],
    ['ordinal and full words', { country: 'US', zip: '331952698', street: '8540 Northwest 66th Street', street2: 'AP-1234' }, { kind: 'address', service: 'Aeropaq' }],
    ['box code after the street', { country: 'US', zip: '33195', street: '8540 NW 66 ST AP-99812' }, { kind: 'address', service: 'Aeropaq' }],
    ['whole address on one line', { country: 'US', zip: '33126', street: '6703 NW 7 St, Miami, FL 33126' }, { kind: 'address', service: 'Aeropost' }],
    ['leading suite designation', { country: 'US', zip: '33126', street: 'Ste 5, 6703 NW 7th Street' }, { kind: 'address', service: 'Aeropost' }],
    ['PMB', { country: 'US', zip: '33126', street: '6703 NW 7th St PMB 400' }, { kind: 'address', service: 'Aeropost' }],
    ['UK postcode spacing and case', { country: 'GB', zip: 'PR31NJ', street: '12 Green Lane West, Unit 7' }, { kind: 'address', service: 'UK forwarder' }],
    ['UK spelled UK', { country: 'uk', zip: 'Pr3 1Nj', street: '12 Green Ln W' }, { kind: 'address', service: 'UK forwarder' }],
    // ZIP-level matches: a home in the same code is never an address match.
    ['home in a warehouse ZIP', { country: 'US', zip: '90250', street: '4410 W 137th Pl' }, { kind: 'zip', service: 'Shipito' }],
    ['same street, other number', { country: 'US', zip: '90250', street: '3507 Jack Northrop Ave' }, { kind: 'zip', service: 'Shipito' }],
    ['same number, other street type', { country: 'US', zip: '90250', street: '3501 Jack Northrop Blvd' }, { kind: 'zip', service: 'Shipito' }],
    ['same number, other street', { country: 'US', zip: '33195', street: '8540 NW 67 St' }, { kind: 'zip', service: 'Aeropaq' }],
    ['forwarder ZIP', { country: 'US', zip: '19720-4411', street: '12 Main St' }, { kind: 'zip', service: 'Qwintry' }],
    ['forwarder ZIP, no street', { country: 'US', zip: '19720' }, { kind: 'zip', service: 'Qwintry' }],
    ['CA postcode without space', { country: 'CA', zip: 'k1a0b1', street: '1 Wellington St' }, { kind: 'zip', service: 'CA forwarder' }],
    ['ZIP entry preferred for the zip match', { country: 'US', zip: '33166', street: '10 NW 80th Ave' }, { kind: 'zip', service: 'Doral cluster' }],
    ['warehouse beside a ZIP entry', { country: 'US', zip: '33166', street: '2000 NW 84 Ave' }, { kind: 'address', service: 'Warehouse A' }],
    // No match.
    ['other ZIP, warehouse street', { country: 'US', zip: '90251', street: '3501 Jack Northrop Ave' }, null],
    ['other country, same ZIP', { country: 'MX', zip: '90250', street: '3501 Jack Northrop Ave' }, null],
    ['no country', { zip: '90250', street: '3501 Jack Northrop Ave' }, null],
    ['no ZIP', { country: 'US', street: '3501 Jack Northrop Ave' }, null],
    ['malformed US ZIP', { country: 'US', zip: '9025', street: '3501 Jack Northrop Ave' }, null],
    ['ordinary address', { country: 'US', zip: '10001', street: '350 5th Ave' }, null],
    ['nulls', { country: null, zip: null, street: null, street2: null }, null],
  ];
  for (const [name, place, want] of cases) {
    it(name, () => {
      const got = index.match(place);
      assert.deepEqual(got && { kind: got.kind, service: got.service }, want);
    });
  }

  it('reports the entry source when it has one', () => {
    assert.deepEqual(index.match({ country: 'US', zip: '90250', street: '3501 Jack Northrop Ave' }), { kind: 'address', service: 'Shipito', source: 'shipito faq' });
    assert.deepEqual(index.match({ country: 'US', zip: '90248', street: '17224 S Figueroa St' }), { kind: 'address', service: 'Planet Express' });
  });

  it('counts the entries it could index', () => {
    assert.equal(index.size, 9);
    assert.equal(buildReshipperIndex([entry({ country: 'USA', zip: '90250', kind: 'zip', service: 'x' }), entry({ country: 'US', zip: '1', kind: 'zip', service: 'x' })]).size, 0);
  });
});

describe('normalizePostcode', () => {
  const cases: Array<[string, string, string]> = [
    ['US', '90250', '90250'], ['US', '90250-1234', '90250'], ['US', '902501234', '90250'], ['US', ' 90250 ', '90250'],
    ['US', '9025', ''], ['US', 'ABCDE', ''], ['PR', '00901-1234', '00901'],
    ['GB', 'pr3 1nj', 'PR31NJ'], ['CA', 'K1A 0B1', 'K1A0B1'], ['DE', '10115', '10115'], ['BR', '01310-100', '01310100'], ['GB', '', ''],
  ];
  for (const [country, zip, want] of cases) it(`${country} ${JSON.stringify(zip)}`, () => assert.equal(normalizePostcode(country, zip), want));
});

describe('parseStreet', () => {
  const cases: Array<[string, { number: string; name: string[] } | null]> = [
    ['3501 Jack Northrop Ave', { number: '3501', name: ['JACK', 'NORTHROP', 'AVE'] }],
    ['17224 S. Figueroa Street #A1234', { number: '17224', name: ['FIGUEROA', 'ST'] }],
    ['8540 NW 66th St.', { number: '8540', name: ['66', 'ST'] }],
    ['123-125 Main Road', { number: '123', name: ['MAIN', 'RD'] }],
    ['Suite 100', null],
    ['PO Box 1234', null],
    ['Main Street', null],
    ['', null],
  ];
  for (const [line, want] of cases) {
    it(JSON.stringify(line), () => {
      const got = parseStreet(line);
      assert.deepEqual(got && { number: got.number, name: [...got.name] }, want);
    });
  }
});
