/**
 * Deterministic synthetic payment traffic for the learning tests (test/http/payment-replay.test.ts,
 * test/blackbox/feedback-durability.test.ts): a seeded PRNG, Luhn-valid card numbers, and customer
 * profiles of two kinds: ordinary customers (their own device, card, email, phone and home IP) and
 * the accounts of fraud rings (several customer ids sharing a few devices, cards and IPs).
 *
 * Nothing here reads the clock or Math.random: the same seed gives the same stream.
 */

/** mulberry32 (shared with the text trainer): a tiny 32-bit PRNG, uniform on [0, 1). */
export { prng as mulberry32 } from '../../src/intel/text/train.ts';
import { prng as mulberry32 } from '../../src/intel/text/train.ts';

/** Convenience draws over mulberry32. */
export class Prng {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  next(): number {
    return this.#next();
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.#next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.#next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }

  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(0, 15)];
    return s;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/** Completes `prefix` with random digits and a Luhn check digit to `length` digits. */
export function luhnCard(rng: Prng, prefix: string, length = 16): string {
  const body = prefix + rng.digits(length - prefix.length - 1);
  let sum = 0;
  // Digits from the right of the body: the first one is doubled (it becomes the second from the right).
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** Valid Visa and Mastercard BINs (the BIN engine knows their scheme; no issuing country on a risk list). */
export const CARD_BINS: readonly string[] = ['465858', '454313', '492181', '475129', '446291', '476173', '426684', '414720', '535522', '516001', '543460', '552433', '521729'];

/** Everyday browsers: desktop and mobile, current versions. */
export const USER_AGENTS: readonly string[] = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 Edg/123.0.2420.81',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.99 Mobile Safari/537.36',
];

/** UK consumer broadband and mobile /16s that geolocate to GB (BT, Sky, Three, Virgin). */
const GB_HOME_NETS: readonly string[] = ['86.128', '86.150', '109.150', '31.48', '5.64', '92.40'];
/** Consumer nets abroad (Orange France, Comcast US): home IPs, but not in the country the ring claims. */
export const RING_NETS: readonly string[] = ['90.10', '73.12'];

const FIRST = ['Olivia', 'Amelia', 'Isla', 'Ava', 'Mia', 'Grace', 'Sophie', 'Emily', 'Oliver', 'George', 'Harry', 'Jack', 'Noah', 'Leo', 'Arthur', 'Oscar', 'James', 'Thomas', 'Lucy', 'Hannah'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Wright', 'Walker', 'Evans', 'Thomas', 'Roberts', 'Green', 'Hall', 'Wood', 'Clarke', 'Hughes', 'Edwards'];
const HOME_MAIL = ['gmail.com', 'outlook.com', 'yahoo.co.uk', 'hotmail.co.uk', 'btinternet.com', 'icloud.com'];
const RING_MAIL = ['gmx.com', 'mail.com'];
const CITIES: ReadonlyArray<{ city: string; region: string; zip: string; lat: number; lon: number }> = [
  { city: 'London', region: 'England', zip: 'SW1A 1AA', lat: 51.507, lon: -0.128 },
  { city: 'Manchester', region: 'England', zip: 'M1 1AE', lat: 53.481, lon: -2.243 },
  { city: 'Birmingham', region: 'England', zip: 'B1 1BB', lat: 52.486, lon: -1.89 },
  { city: 'Leeds', region: 'England', zip: 'LS1 1UR', lat: 53.8, lon: -1.549 },
  { city: 'Bristol', region: 'England', zip: 'BS1 4DJ', lat: 51.455, lon: -2.588 },
];

/** One customer account as the merchant knows it. */
export interface Profile {
  customerId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  deviceId: string;
  cardNumber: string;
  /** The IPs this customer buys from (one home IP for ordinary customers; the ring's pool for ring accounts). */
  ips: readonly string[];
  userAgent: string;
  place: (typeof CITIES)[number];
  /** UNIX seconds. */
  registeredAt: number;
  /** The customer's usual basket in GBP; each purchase is within ×0.8 to ×1.25 of it. */
  typicalAmount: number;
  /** Which ring (0-based) the account belongs to; null for ordinary customers. */
  ring: number | null;
}

function homeIp(rng: Prng, used: Set<string>): string {
  for (;;) {
    const ip = `${rng.pick(GB_HOME_NETS)}.${rng.int(1, 254)}.${rng.int(1, 254)}`;
    if (!used.has(ip)) {
      used.add(ip);
      return ip;
    }
  }
}

/** UK mobile ranges that are assigned (libphonenumber knows them as valid mobile numbers). */
const GB_MOBILE = ['447400', '447500', '447520', '447800', '447900'];

function gbMobile(rng: Prng): string {
  return `+${rng.pick(GB_MOBILE)}${rng.digits(6)}`;
}

/** `count` ordinary customers: everything of their own, registered 1-4 years before `nowSec`. */
export function normalCustomers(rng: Prng, count: number, nowSec: number): Profile[] {
  const usedIps = new Set<string>();
  const out: Profile[] = [];
  for (let i = 0; i < count; i++) {
    const firstName = rng.pick(FIRST);
    const lastName = rng.pick(LAST);
    out.push({
      customerId: `cust-${1000 + i}`,
      firstName,
      lastName,
      email: `${firstName}.${lastName}${rng.int(1, 99)}@${rng.pick(HOME_MAIL)}`.toLowerCase(),
      phone: gbMobile(rng),
      deviceId: `dev-${rng.hex(16)}`,
      cardNumber: luhnCard(rng, rng.pick(CARD_BINS)),
      ips: [homeIp(rng, usedIps)],
      userAgent: rng.pick(USER_AGENTS),
      place: rng.pick(CITIES),
      registeredAt: nowSec - rng.int(365, 4 * 365) * 86_400,
      typicalAmount: rng.int(20, 160),
      ring: null,
    });
  }
  return out;
}

/** The shared means of one ring. */
export interface Ring {
  index: number;
  devices: readonly string[];
  cards: readonly string[];
  ips: readonly string[];
  userAgents: readonly string[];
  accounts: Profile[];
}

/**
 * `rings` fraud rings of `accountsPerRing` customer accounts each. A ring owns 2 devices, 2 cards and
 * 3 IPs (home-broadband addresses abroad, while every account claims a UK address): account j uses
 * device j % 2 and card ⌊j / ⌈n/2⌉⌋, so every card is used from both devices by several accounts.
 * Accounts are days old, each with its own email (throwaway mail domains) and phone.
 */
export function fraudRings(rng: Prng, rings: number, accountsPerRing: number, nowSec: number): Ring[] {
  const out: Ring[] = [];
  const half = Math.ceil(accountsPerRing / 2);
  for (let r = 0; r < rings; r++) {
    const net = RING_NETS[r % RING_NETS.length]!;
    const ring: Ring = {
      index: r,
      devices: [`dev-${rng.hex(16)}`, `dev-${rng.hex(16)}`],
      cards: [luhnCard(rng, rng.pick(CARD_BINS)), luhnCard(rng, rng.pick(CARD_BINS))],
      ips: [0, 1, 2].map((k) => `${net}.${10 + 20 * r + k}.${rng.int(1, 254)}`),
      userAgents: [USER_AGENTS[6]!, USER_AGENTS[0]!],
      accounts: [],
    };
    for (let j = 0; j < accountsPerRing; j++) ring.accounts.push(ringAccount(rng, ring, `ring${r}-acct-${j}`, j, Math.floor(j / half), nowSec - rng.int(3, 12) * 86_400));
    out.push(ring);
  }
  return out;
}

/** One more account of a ring on the ring's device `device` and card `card` (a fresh customer id). */
export function ringAccount(rng: Prng, ring: Ring, customerId: string, device: number, card: number, registeredAt: number): Profile {
  const firstName = rng.pick(FIRST);
  const lastName = rng.pick(LAST);
  const d = device % ring.devices.length;
  return {
    customerId,
    firstName,
    lastName,
    email: `${firstName.toLowerCase()}${rng.digits(4)}@${rng.pick(RING_MAIL)}`,
    phone: gbMobile(rng),
    deviceId: ring.devices[d]!,
    cardNumber: ring.cards[card % ring.cards.length]!,
    ips: ring.ips,
    userAgent: ring.userAgents[d]!,
    place: CITIES[0]!,
    registeredAt,
    typicalAmount: rng.int(180, 300),
    ring: ring.index,
  };
}

/** The `data` of one purchase by `p`: every field a shop usually sends. */
export function purchase(rng: Prng, p: Profile, transactionId: string): Record<string, unknown> {
  const amount = Math.round(p.typicalAmount * (0.8 + rng.next() * 0.45) * 100) / 100;
  const qty = rng.int(1, 3);
  return {
    action: 'purchase',
    website_domain: 'shop.example',
    transaction_id: transactionId,
    transaction_amount: amount,
    transaction_currency: 'GBP',
    cart_items: [{ item_id: rng.int(100, 999), item_name: 'Item', item_quantity: qty, item_price: Math.round((amount / qty) * 100) / 100 }],
    isDigitalProducts: false,
    customer_id: p.customerId,
    customer_firstname: p.firstName,
    customer_lastname: p.lastName,
    customer_email: p.email,
    customer_phone: p.phone,
    customer_ip: rng.pick(p.ips),
    customer_device_id: p.deviceId,
    customer_useragent: p.userAgent,
    customer_country: 'GB',
    customer_city: p.place.city,
    customer_region: p.place.region,
    customer_zip: p.place.zip,
    customer_registration_date: p.registeredAt,
    billing_country: 'GB',
    billing_city: p.place.city,
    billing_zip: p.place.zip,
    shipping_country: 'GB',
    shipping_city: p.place.city,
    shipping_zip: p.place.zip,
    payment_type: 'cards',
    card_name: `${p.firstName} ${p.lastName}`.toUpperCase(),
    card_number: p.cardNumber,
    cvv_result: true,
  };
}
