/** Request sets shared by the benches: the IP bench's addresses and the payment bench's transactions. */
import { luhnCheckDigit } from '../scripts/synth/cards.ts';

/** 200 public addresses: every /8 of IPv4 that is not special, and IPv6 from big networks. */
export function ipAddresses(): string[] {
  const out: string[] = [];
  for (let a = 1; out.length < 160; a += 1) {
    if ([10, 100, 127, 169, 172, 192, 198, 203].includes(a) || a >= 224) continue;
    out.push(`${a}.${(a * 37) % 256}.${(a * 11) % 256}.${(a * 7) % 250 + 1}`);
  }
  for (let i = 0; out.length < 200; i++) out.push(`2a0${i % 10}:${(i * 331 % 65536).toString(16)}::${i + 1}`);
  return out;
}

/** Customers the feedback bench's outcomes and labels are about. */
export const CUSTOMERS = 2000;

/**
 * Customers of the payment transactions, each with their own card, device, email, phone and address, all
 * of one country. A busy shop's orders of ten minutes come from distinct cards almost always: a pool this
 * large repeats a customer rarely within a run, as real traffic does (a pool of 2,000 at 1,500 scorings a
 * second used each card every second, which payment-rules/2 rightly judges card testing and alerts on).
 */
export const CUSTOMER_POOL = 1_000_000;

/**
 * Issuer ranges (6-digit BINs) the customers' cards come from: Visa and Mastercard ranges spread the way a
 * large shop's cards are. With a handful of BINs, a thousand different cards a second from each is what a
 * BIN attack looks like (PF10033 rightly fires on nine in ten and stores a `fraud_payment` event each).
 */
export const BIN_POOL = 20_000;

/** A Luhn-valid card number: one card per customer, its BIN one of BIN_POOL, as in real traffic. */
function card(c: number): string {
  const b = (c * 7919) % BIN_POOL;
  const bin = b % 2 === 0 ? `4${String(10_000 + ((b * 37) % 90_000)).padStart(5, '0')}` : `5${1 + (b % 5)}${String((b * 53) % 10_000).padStart(4, '0')}`;
  const body = `${bin}${String(c).padStart(9, '0')}`;
  return body + luhnCheckDigit(body);
}
const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
];
const PLACES: Array<[string, string, string, number, number]> = [
  ['GB', 'England', 'London', 51.5, -0.12], ['DE', 'Berlin', 'Berlin', 52.52, 13.4], ['FR', 'Ile-de-France', 'Paris', 48.86, 2.35],
  ['US', 'California', 'San Francisco', 37.77, -122.42], ['SA', 'Riyadh', 'Riyadh', 24.71, 46.67], ['JP', 'Tokyo', 'Tokyo', 35.68, 139.69],
];
/** Per place: a /16 of access networks the bundled GeoLite2 puts in that country, and a mobile number prefix of it. */
const NETWORKS: ReadonlyArray<[string, string]> = [
  ['86.1', '+4474001'], ['91.64', '+49151123'], ['90.10', '+336123'], ['73.162', '+141523'], ['95.184', '+9665123'], ['126.10', '+8190123'],
];

/**
 * Transaction `i` with every field of the spec's table, its customer and place drawn from `rnd` (the same
 * stream gives the same transactions).
 */
export function transactionMaker(rnd: () => number): (i: number) => Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  return (i) => {
    const c = Math.floor(rnd() * CUSTOMER_POOL);
    const [country, region, city, lat, lon] = PLACES[c % PLACES.length]!;
    const [net, mobile] = NETWORKS[c % NETWORKS.length]!;
    return {
      action: 'purchase', website_domain: 'shop.example', website_name: 'Shop', merchant_id: 7, shipment_id: `sh-${i}`,
      transaction_id: `bench-${i}`, transaction_amount: Math.round(rnd() * 50000) / 100, transaction_currency: 'EUR',
      cart_items: [{ item_id: i % 97, item_name: 'Item', item_quantity: 1 + (i % 3), item_price: 19.99, item_category_id: 'c1' }],
      isDigitalProducts: i % 5 === 0, coupon: i % 11 === 0 ? 'WELCOME' : undefined,
      customer_id: `cust-${c}`, customer_firstname: 'Jane', customer_lastname: 'Doe', customer_pob: city,
      customer_ip: `${net}.${(c >> 8) % 250}.${(c % 250) + 1}`, customer_country: country, customer_region: region, customer_city: city,
      customer_zip: '10115', customer_street: '1 Main St', customer_street2: 'Flat 2', customer_latitude: lat, customer_longitude: lon,
      customer_device_id: `dev-${c}`, customer_phone: `${mobile}${String(c % 100_000).padStart(5, '0')}`, customer_registration_date: 1_600_000_000 + c,
      customer_balance: 12.5, customer_dob: '1990-01-01', customer_email: `customer${c}@example.com`, customer_2fa: c % 2 === 0,
      customer_useragent: pick(UAS), shipping_country: country, shipping_region: region, shipping_city: city, shipping_street: '1 Main St',
      shipping_zip: '10115', shipping_latitude: lat, shipping_longitude: lon, billing_country: country, billing_region: region,
      billing_city: city, billing_street: '1 Main St', billing_zip: '10115', billing_latitude: lat, billing_longitude: lon,
      payment_type: 'cards', card_name: 'JANE DOE', card_number: card(c), cvv_result: true,
    };
  };
}
