/**
 * Test builders for the payment engine: an empty input and all-clean signals, each taking the
 * few fields a test cares about. Used by the engine's tests (and usable by the service's).
 */
import type {
  AmountHistory, BinSignal, EmailSignal, IpSignal, LabelSignal, ListSignal, ModelSignal, PaymentInput, PaymentSignals, PhoneSignal, VelocitySignal,
} from './types.ts';

/** 2025-06-01T12:00:00Z, the clock of the tests. */
export const TEST_NOW = new Date(Date.UTC(2025, 5, 1, 12, 0, 0));

/** A payment with no fields (what `{data: {}}` parses to), with `over` applied. */
export function emptyInput(over: Partial<PaymentInput> = {}): PaymentInput {
  return { cartItems: [], isDigitalProducts: false, customer: {}, billing: {}, shipping: {}, ...over };
}

export interface SignalOverrides {
  now?: Date;
  ip?: Partial<IpSignal> | null;
  email?: Partial<EmailSignal> | null;
  phone?: Partial<PhoneSignal> | null;
  bin?: Partial<BinSignal> | null;
  velocity?: VelocitySignal;
  lists?: Partial<ListSignal>;
  labels?: Partial<LabelSignal>;
  model?: Partial<ModelSignal>;
  amounts?: Partial<PaymentSignals['amounts']>;
  reshipper?: PaymentSignals['reshipper'];
}

/**
 * Signals of a clean transaction: an ordinary residential IP in the US, a valid email and mobile
 * phone, a valid Visa card issued in the US, no velocity, no lists, no labels, nothing learned, no
 * amount history, not a package forwarder. `over` merges one level deep (`{ip: {isTor: true}}` keeps the rest of the IP);
 * `null` for ip/email/phone/bin means "not sent".
 */
export function cleanSignals(over: SignalOverrides = {}): PaymentSignals {
  const base = {
    now: TEST_NOW,
    ip: {
      valid: true, bogon: false, isTor: false, isProxy: false, proxyType: null, isHosting: false, isRelay: false, isBot: false,
      risk: 0, country: 'US', latitude: 40.71, longitude: -74.01,
    },
    email: { valid: true, disposable: false, score: 0, reason: '' },
    phone: { valid: true, disposable: false, type: 'MOBILE', lineType: 'mobile', reason: null, country: 'US' } as PhoneSignal,
    bin: { valid: true, scheme: 'Visa', coScheme: null, country: 'US', reason: null },
    velocity: {},
    lists: { ip: false, email: false, phone: false, card: false, customer: false, confirmedFraud: false },
    labels: { customer: 0, shared: 0, customerFraud30d: 0 },
    model: { learned: new Map<string, number>() } as ModelSignal,
    amounts: { customer: null, account: null } as PaymentSignals['amounts'],
    reshipper: null,
  } satisfies PaymentSignals;
  const merge = <T extends object>(a: T, b: Partial<T> | null | undefined): T | null => (b === undefined ? a : b === null ? null : { ...a, ...b });
  return {
    now: over.now ?? base.now,
    ip: merge(base.ip, over.ip),
    email: merge(base.email, over.email),
    phone: merge(base.phone, over.phone),
    bin: merge(base.bin, over.bin),
    velocity: { ...base.velocity, ...(over.velocity ?? {}) },
    lists: { ...base.lists, ...(over.lists ?? {}) },
    labels: { ...base.labels, ...(over.labels ?? {}) },
    model: { ...base.model, ...(over.model ?? {}) },
    amounts: { ...base.amounts, ...(over.amounts ?? {}) },
    reshipper: over.reshipper ?? null,
  };
}

/** An amount history from plain amounts (ln(1 + amount) mean and population standard deviation). */
export function history(amounts: readonly number[]): AmountHistory {
  const logs = amounts.map((a) => Math.log1p(a));
  const n = logs.length;
  const mean = n === 0 ? 0 : logs.reduce((a, b) => a + b, 0) / n;
  const sd = n === 0 ? 0 : Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return { count: n, meanLog: mean, sdLog: sd, max: n === 0 ? 0 : Math.max(...amounts) };
}
