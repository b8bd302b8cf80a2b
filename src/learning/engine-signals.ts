import type { CountryCode } from 'libphonenumber-js/max';
import type { BinData } from '../data/bin-data.ts';
import type { CountryData, DatasetInfo } from '../data/countries.ts';
import type { DomainData } from '../data/domain-data.ts';
import type { EmailData } from '../data/email-lists.ts';
import type { PhoneData } from '../data/phone-data.ts';
import type { ReshipperData } from '../data/reshipper-data.ts';
import { evaluateBin } from '../intel/bin/evaluate.ts';
import { parseBinInput } from '../intel/bin/parse.ts';
import { UNKNOWN_FACTS } from '../intel/domain/network.ts';
import { evaluateEmail } from '../intel/email/evaluate.ts';
import { parseEmail } from '../intel/email/syntax.ts';
import { parseIpInput } from '../intel/ip/address.ts';
import { ipEssentials } from '../intel/ip/lookup.ts';
import { ipRisk } from '../intel/ip/risk.ts';
import type { IpSources } from '../intel/ip/types.ts';
import type { BinSignal, EmailSignal, IpSignal, PaymentInput, PaymentPlace, PhoneSignal, ReshipperSignal } from '../intel/payment/types.ts';
import { evaluatePhone } from '../intel/phone/evaluate.ts';
import { checkCountry, parsePhone } from '../intel/phone/parse.ts';

/** The other engines, used directly (not over HTTP) by payment scoring. */
export interface PaymentEngines {
  ip: IpSources;
  countries: CountryData;
  email: EmailData;
  domains: DomainData;
  phone: PhoneData;
  bins: BinData;
  /** The package-forwarder list (PF10032); absent in engines built without it. */
  reshippers?: ReshipperData;
}

/** Identity labels the learning feature found for the transaction's own identities. */
export interface LabelFlags {
  ipFraud: boolean;
  emailFraud: boolean;
  phoneFraud: boolean;
}

// Payment scoring never waits on the network: the email check uses the domain lists but no DNS
// (UNKNOWN_FACTS: mail records unknown, as when a resolver fails).

function ipSignal(engines: PaymentEngines, sent: string, now: Date, fraudLabel: boolean): IpSignal {
  const parsed = parseIpInput(sent);
  if (!parsed.ok) {
    return { valid: false, bogon: false, isTor: false, isProxy: false, proxyType: null, isHosting: false, isRelay: false, isBot: false, risk: 0, country: null, latitude: null, longitude: null };
  }
  // The address's country, coordinates and flags only: lookupIp's whole answer (names, postal code, AS facts) is not read here.
  const found = ipEssentials(parsed.value, engines.ip);
  const s = found.security;
  // A fraud label on the address rates it high risk (spec "Identity label").
  const risk = fraudLabel ? Math.max(ipRisk(s).risk, FRAUD_LABEL_IP_RISK) : ipRisk(s).risk;
  return {
    valid: true,
    bogon: parsed.value.bogon !== null,
    isTor: s.isTor,
    isProxy: s.isProxy,
    proxyType: s.proxyType,
    isHosting: s.isHosting,
    isRelay: s.isRelay,
    isBot: s.isBot,
    risk,
    country: found.countryCode !== null && found.countryCode !== '' ? found.countryCode : null,
    latitude: finiteOrNull(found.latitude),
    longitude: finiteOrNull(found.longitude),
  };
}

/** A coordinate of the record as a number; null when absent (as the IP answer's text reads back). */
function finiteOrNull(v: number | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Risk of an address carrying a fraud label (spec: "IP checks rate the IP high risk"). */
export const FRAUD_LABEL_IP_RISK = 90;

function emailSignal(engines: PaymentEngines, sent: string, fraudLabel: boolean): EmailSignal {
  const parsed = parseEmail(sent);
  if (!parsed.ok) return { valid: false, disposable: false, score: 3, reason: parsed.problem };
  const domainLists = engines.domains.lists.lists(parsed.email.domain);
  const { result } = evaluateEmail(sent, parsed.email, engines.email.lists, { domainLists, network: UNKNOWN_FACTS, label: fraudLabel ? 'fraud' : null });
  return { valid: result.isValid, disposable: result.isDisposable, score: result.score, reason: result.reason };
}

/** The region a payment's phone is read in: the customer's, else the billing country, else the number must be international. */
function phoneRegion(input: PaymentInput): CountryCode {
  for (const c of [input.customer.country, input.billing.country, input.shipping.country]) {
    if (c === undefined) continue;
    const checked = checkCountry(c);
    if (checked.ok) return checked.region;
  }
  return 'US';
}

function phoneSignal(engines: PaymentEngines, input: PaymentInput, sent: string, now: Date, fraudLabel: boolean): PhoneSignal {
  const region = phoneRegion(input);
  // "International format" per the spec: bare digits are read as +digits when they do not parse nationally.
  let parsed = parsePhone(sent, region);
  if (!parsed.ok && /^\d{7,15}$/.test(sent)) parsed = parsePhone(`+${sent}`, region);
  if (!parsed.ok) return { valid: false, disposable: false, type: null, lineType: 'unknown', reason: parsed.problem, country: null };
  const digits = parsed.phone.number.number.slice(1);
  const disposable = engines.phone.disposable.facts(digits, now);
  const ev = evaluatePhone(region, parsed.phone, region, { disposable, carrier: engines.phone.carrier, label: fraudLabel ? 'fraud' : null });
  return {
    valid: ev.result.isValid,
    disposable: ev.result.disposable,
    type: ev.type,
    lineType: ev.result.lineType,
    reason: ev.result.reason === '' ? null : ev.result.reason,
    // The number's own country (never the region it was read in), null for an invalid or non-geographic number.
    country: ev.country,
  };
}

function binSignal(engines: PaymentEngines, cardNumber: string): BinSignal {
  const parsed = parseBinInput(cardNumber);
  if (!parsed.ok) return { valid: false, scheme: null, coScheme: null, country: null, reason: parsed.problem };
  const r = evaluateBin(cardNumber, parsed.value, { index: engines.bins.index, countries: engines.countries.byCode }, 'EN');
  return {
    valid: r.isValid,
    scheme: r.info.scheme.name,
    coScheme: r.info.scheme.coName,
    country: r.info.country?.alpha2 ?? null,
    reason: r.reason === '' ? null : r.reason,
  };
}

/** What the other engines say about the transaction's IP, email, phone and card. */
export function engineSignals(engines: PaymentEngines, input: PaymentInput, now: Date, labels: LabelFlags): {
  ip: IpSignal | null;
  email: EmailSignal | null;
  phone: PhoneSignal | null;
  bin: BinSignal | null;
} {
  return {
    ip: input.ip === undefined ? null : ipSignal(engines, input.ip, now, labels.ipFraud),
    email: input.email === undefined ? null : emailSignal(engines, input.email, labels.emailFraud),
    phone: input.phone === undefined ? null : phoneSignal(engines, input, input.phone, now, labels.phoneFraud),
    bin: input.cardNumber === undefined ? null : binSignal(engines, input.cardNumber),
  };
}

/** The package-forwarder list's verdict on a shipping address; null when it is not on it or no list is loaded. */
export function reshipperSignal(engines: PaymentEngines, shipping: PaymentPlace): ReshipperSignal | null {
  const m = engines.reshippers?.index.match(shipping);
  return m ? { kind: m.kind, service: m.service } : null;
}

/** Every dataset payment scoring reads, for explain=yes and the stored scoring. */
export function paymentDatasets(engines: PaymentEngines): DatasetInfo[] {
  return [
    ...engines.ip.datasets, ...engines.countries.datasets, ...engines.email.datasets, ...engines.domains.datasets, ...engines.phone.datasets,
    ...engines.bins.datasets, ...(engines.reshippers?.datasets ?? []),
  ];
}
