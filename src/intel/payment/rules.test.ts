import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countryRiskLists, HIGH_FRAUD_CUSTOMER_COUNTRIES, HIGH_RISK_CARD_COUNTRIES } from './countries.ts';
import { cleanSignals, emptyInput, history, TEST_NOW, type SignalOverrides } from './fixtures.ts';
import { DIGITAL_BOOSTED, DIGITAL_FACTOR, featurePrior, PRIOR_LOG_ODDS } from './prior.ts';
import {
  amountZ, binSurgeLimit, binUsualPer10Minutes, haversineKm, LIMITS, modelFlagHit, PAYMENT_RULE_IDS, PAYMENT_RULES, THRESHOLDS, type PaymentRuleId, type RuleContext,
} from './rules.ts';
import type { PaymentInput } from './types.ts';
import { BIN_WINDOW_AMOUNT_BELOW } from '../../store/learning-ports.ts';
import { VELOCITY_ROWS } from '../../store/learning-rows.ts';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const NOW_S = TEST_NOW.getTime() / 1000;

function run(id: PaymentRuleId, input: Partial<PaymentInput> = {}, signals: SignalOverrides = {}, ctx: Partial<RuleContext> = {}) {
  const rule = PAYMENT_RULES.find((r) => r.id === id);
  assert.ok(rule, id);
  const i = emptyInput(input);
  return rule.check(i, cleanSignals(signals), { countries: countryRiskLists(), digital: i.isDigitalProducts, ...ctx });
}

interface Case {
  name: string;
  input?: Partial<PaymentInput>;
  signals?: SignalOverrides;
  fires: boolean;
  /** Expected grade when it fires (graded rules; absent: ungraded). */
  grade?: string;
  /** A fragment of the detail. */
  detail?: string;
}

const CASES: Record<PaymentRuleId, Case[]> = {
  PF10001: [
    { name: 'no velocity known (no IP, no device)', fires: false },
    { name: 'below every threshold', signals: { velocity: { ipLastHour: 4, ipLastDay: 19, deviceLastDay: 14 } }, fires: false },
    { name: '5 earlier purchases from the IP in an hour', signals: { velocity: { ipLastHour: 5 } }, fires: true, detail: 'last hour 5' },
    { name: '20 from the IP in a day', signals: { velocity: { ipLastDay: 20 } }, fires: true },
    { name: '15 from the device in a day', signals: { velocity: { deviceLastDay: 15 } }, fires: true, detail: 'device' },
    { name: 'digital goods: 3 from the IP in an hour', input: { isDigitalProducts: true }, signals: { velocity: { ipLastHour: 3 } }, fires: true },
    { name: 'digital goods: 2 in an hour is fine', input: { isDigitalProducts: true }, signals: { velocity: { ipLastHour: 2, ipLastDay: 9, deviceLastDay: 7 } }, fires: false },
  ],
  PF10002: [
    { name: 'no velocity known', fires: false },
    { name: 'below thresholds', signals: { velocity: { customerLastHour: 4, customerLastDay: 14, cardLastDay: 9 } }, fires: false },
    { name: '5 by the customer in an hour', signals: { velocity: { customerLastHour: 5 } }, fires: true },
    { name: '15 by the customer in a day', signals: { velocity: { customerLastDay: 15 } }, fires: true },
    { name: '10 with the card in a day', signals: { velocity: { cardLastDay: 10 } }, fires: true, detail: 'card' },
    { name: 'digital goods: 8 by the customer in a day', input: { isDigitalProducts: true }, signals: { velocity: { customerLastDay: 8 } }, fires: true },
    { name: 'digital goods: 5 with the card in a day', input: { isDigitalProducts: true }, signals: { velocity: { cardLastDay: 5 } }, fires: true },
  ],
  PF10003: [
    { name: 'no IP sent', signals: { ip: null }, fires: false },
    { name: 'residential IP', fires: false },
    { name: 'not an address', signals: { ip: { valid: false, isProxy: true } }, fires: false },
    { name: 'Tor', signals: { ip: { isTor: true, isProxy: true } }, fires: true, detail: 'Tor', grade: 'tor' },
    { name: 'VPN', signals: { ip: { isProxy: true, proxyType: 'VPN' } }, fires: true, detail: 'VPN' },
    { name: 'hosting', signals: { ip: { isHosting: true } }, fires: true, detail: 'hosting' },
    { name: 'bot', signals: { ip: { isBot: true } }, fires: true },
    { name: 'relay alone: the weakest grade', signals: { ip: { isRelay: true } }, fires: true, grade: 'relay' },
    { name: 'relay and hosting: hosting', signals: { ip: { isRelay: true, isHosting: true } }, fires: true, grade: 'hosting' },
    { name: 'Tor and hosting: Tor', signals: { ip: { isTor: true, isHosting: true } }, fires: true, grade: 'tor' },
    { name: 'VPN grade', input: { isDigitalProducts: true }, signals: { ip: { isProxy: true } }, fires: true, grade: 'proxy' },
  ],
  PF10004: [
    { name: 'no email sent', signals: { email: null }, fires: false },
    { name: 'good email', fires: false },
    { name: 'score 1 is fine', signals: { email: { score: 1 } }, fires: false },
    { name: 'invalid', signals: { email: { valid: false, reason: 'no MX' } }, fires: true, detail: 'no MX', grade: 'invalid' },
    { name: 'disposable', signals: { email: { disposable: true } }, fires: true, grade: 'disposable' },
    { name: 'score 2', signals: { email: { score: 2 } }, fires: true, grade: 'spam' },
  ],
  PF10005: [
    { name: 'no phone sent', signals: { phone: null }, fires: false },
    { name: 'mobile', fires: false },
    { name: 'fixed line', signals: { phone: { type: 'FIXED_LINE' } }, fires: false },
    { name: 'invalid', signals: { phone: { valid: false } }, fires: true },
    { name: 'disposable', signals: { phone: { disposable: true } }, fires: true },
    { name: 'VOIP', signals: { phone: { type: 'VOIP' } }, fires: true, detail: 'VOIP' },
    { name: 'premium rate', signals: { phone: { type: 'PREMIUM_RATE' } }, fires: true },
  ],
  PF10006: [
    { name: 'no coordinates', fires: false },
    { name: 'valid pairs everywhere', input: { customer: { latitude: 48.85, longitude: 2.35 }, billing: { latitude: -33.9, longitude: 151.2 }, shipping: { latitude: 90, longitude: -180 } }, fires: false },
    { name: 'latitude out of range', input: { customer: { latitude: 91, longitude: 2 } }, fires: true, detail: 'customer: latitude 91' },
    { name: 'longitude out of range', input: { billing: { latitude: 10, longitude: -180.5 } }, fires: true, detail: 'billing: longitude' },
    { name: 'only latitude', input: { shipping: { latitude: 10 } }, fires: true, detail: 'shipping: only one' },
    { name: 'only longitude', input: { customer: { longitude: 10 } }, fires: true },
    { name: 'exactly 0,0', input: { billing: { latitude: 0, longitude: 0 } }, fires: true, detail: '0,0' },
    { name: 'a 0 latitude alone is valid', input: { billing: { latitude: 0, longitude: 9.5 } }, fires: false },
  ],
  PF10007: [
    { name: 'no card sent', signals: { bin: null }, fires: false },
    { name: 'valid BIN', fires: false },
    { name: 'invalid BIN', signals: { bin: { valid: false, reason: 'unknown range' } }, fires: true, detail: 'unknown range' },
  ],
  PF10008: [
    { name: 'no payment_type', input: { cardNumber: '4111111111111111' }, fires: false },
    { name: 'no card number', input: { paymentType: 'bank' }, fires: false },
    { name: 'cards with a Visa', input: { paymentType: 'cards', cardNumber: '4111111111111111' }, fires: false },
    { name: 'Apple Pay with a Visa', input: { paymentType: 'Apple Pay', cardNumber: '4111111111111111' }, fires: false },
    { name: 'an unknown payment_type is not judged', input: { paymentType: 'voucher', cardNumber: '4111111111111111' }, fires: false },
    { name: 'bank with a card number', input: { paymentType: 'bank', cardNumber: '4111111111111111' }, fires: true, detail: 'bank' },
    { name: 'crypto with a card number', input: { paymentType: 'crypto', cardNumber: '4111111111111111' }, fires: true },
    { name: 'wallet with a card number', input: { paymentType: 'wallet', cardNumber: '4111111111111111' }, fires: true },
    { name: 'COD with a card number', input: { paymentType: 'COD', cardNumber: '4111111111111111' }, fires: true },
    { name: 'mada with a mada co-badged Visa', input: { paymentType: 'mada', cardNumber: '4406470000000000' }, signals: { bin: { scheme: 'Visa', coScheme: 'mada', country: 'SA' } }, fires: false },
    { name: 'MADA (case) with a mada card', input: { paymentType: 'MADA', cardNumber: '5888450000000000' }, signals: { bin: { scheme: 'mada', coScheme: null } }, fires: false },
    { name: 'mada with a plain Visa', input: { paymentType: 'mada', cardNumber: '4111111111111111' }, signals: { bin: { scheme: 'Visa', coScheme: null } }, fires: true, detail: 'Visa' },
    { name: 'RuPay with a RuPay card', input: { paymentType: 'rupay', cardNumber: '6521500000000000' }, signals: { bin: { scheme: 'RuPay', coScheme: null, country: 'IN' } }, fires: false },
    { name: 'RuPay with a Mastercard', input: { paymentType: 'rupay', cardNumber: '5555555555554444' }, signals: { bin: { scheme: 'Mastercard', coScheme: null } }, fires: true },
    { name: 'mada with an unknown scheme is not judged', input: { paymentType: 'mada', cardNumber: '9999990000000000' }, signals: { bin: { scheme: null, coScheme: null } }, fires: false },
    { name: 'mada with an invalid BIN is PF10007, not this', input: { paymentType: 'mada', cardNumber: '4111111111111111' }, signals: { bin: { valid: false } }, fires: false },
  ],
  PF10009: [
    { name: 'no country', fires: false },
    { name: 'ordinary country', input: { customer: { country: 'FR' } }, fires: false },
    { name: 'customer country on the list', input: { customer: { country: 'KP' } }, fires: true, detail: 'KP' },
    { name: 'billing country used when the customer country is absent', input: { billing: { country: 'YE' } }, fires: true },
    { name: 'customer country wins over billing', input: { customer: { country: 'FR' }, billing: { country: 'YE' } }, fires: false },
  ],
  PF10010: [
    { name: 'no card', signals: { bin: null }, fires: false },
    { name: 'unknown card country', signals: { bin: { country: null } }, fires: false },
    { name: 'ordinary card country', fires: false },
    { name: 'card issued in Iran', signals: { bin: { country: 'IR' } }, fires: true, detail: 'IR' },
    { name: 'card issued in Cuba (card list only)', signals: { bin: { country: 'CU' } }, fires: true },
  ],
  PF10011: [
    { name: 'unknown', fires: false },
    { name: '4 locations', signals: { velocity: { customerLocations30d: 4 } }, fires: false },
    { name: '5 locations', signals: { velocity: { customerLocations30d: 5 } }, fires: true },
    { name: 'digital goods: 3 locations', input: { isDigitalProducts: true }, signals: { velocity: { customerLocations30d: 3 } }, fires: true },
  ],
  PF10012: [
    { name: 'unknown', fires: false },
    { name: '2 customers (a household)', signals: { velocity: { cardCustomers30d: 2 } }, fires: false },
    { name: '3 customers', signals: { velocity: { cardCustomers30d: 3 } }, fires: true, grade: '3' },
    { name: '10 customers in the last hour', signals: { velocity: { cardCustomers30d: 10, cardCustomersLastHour: 10 } }, fires: true, grade: '10', detail: 'last hour' },
    { name: '6 customers', signals: { velocity: { cardCustomers30d: 6 } }, fires: true, grade: '5' },
    { name: 'digital goods: 2 customers', input: { isDigitalProducts: true }, signals: { velocity: { cardCustomers30d: 2 } }, fires: true },
  ],
  PF10013: [
    { name: 'no user agent', fires: false },
    { name: 'a real browser', input: { userAgent: CHROME }, fires: false },
    { name: 'curl', input: { userAgent: 'curl/8.4.0' }, fires: true, detail: 'curl' },
    { name: 'digital goods: python-requests', input: { userAgent: 'python-requests/2.31.0', isDigitalProducts: true }, fires: true },
  ],
  PF10014: [
    { name: 'no user agent', fires: false },
    { name: 'a real browser', input: { userAgent: CHROME }, fires: false },
    { name: 'BlueStacks', input: { userAgent: 'Mozilla/5.0 (Linux; Android 7.1.2; SM-G955N Build/N2G48H; wv) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/92.0 Mobile Safari/537.36 BlueStacks' }, fires: true, detail: 'BlueStacks' },
    { name: 'digital goods: vbox86p', input: { isDigitalProducts: true, userAgent: 'Dalvik/2.1.0 (Linux; U; Android 9; vbox86p Build/PI)' }, fires: true },
  ],
  PF10015: [
    // Decided by score.ts from the combined score (modelFlagHit, tested below), never by the rule table.
    { name: 'the table never fires it', signals: { model: { learned: new Map([['bias', 9]]) } }, fires: false },
  ],
  PF10016: [
    { name: 'no amount', signals: { amounts: { account: history(Array(30).fill(20) as number[]) } }, fires: false },
    { name: 'no history', input: { amount: 5000 }, fires: false },
    { name: 'account history too short (19)', input: { amount: 5000 }, signals: { amounts: { account: history(Array(19).fill(20) as number[]) } }, fires: false },
    { name: 'far above the account (20 amounts)', input: { amount: 5000 }, signals: { amounts: { account: history(Array(20).fill(20) as number[]) } }, fires: true, detail: "account's 20" },
    { name: 'ordinary for the account', input: { amount: 30 }, signals: { amounts: { account: history([10, 20, 30, 40, 25, 15, 35, 20, 22, 18, 30, 28, 12, 45, 20, 25, 19, 21, 33, 27]) } }, fires: false },
    { name: 'over 5× the customer max (3 amounts)', input: { amount: 501 }, signals: { amounts: { customer: history([50, 100, 80]) } }, fires: true, detail: '5 times' },
    { name: 'exactly 5× the customer max', input: { amount: 500 }, signals: { amounts: { customer: history([50, 100, 80]) } }, fires: false },
    { name: 'customer history too short (2)', input: { amount: 5000 }, signals: { amounts: { customer: history([50, 100]) } }, fires: false },
  ],
  PF10017: [
    { name: 'no IP', input: { billing: { country: 'FR' } }, signals: { ip: null }, fires: false },
    { name: 'no billing', fires: false },
    { name: 'same country', input: { billing: { country: 'US' } }, fires: false },
    { name: 'different country', input: { billing: { country: 'FR' } }, fires: true, detail: 'billing country FR, IP country US' },
    { name: 'IP country unknown', input: { billing: { country: 'FR' } }, signals: { ip: { country: null } }, fires: false },
    { name: 'billing within 500 km (New York - Philadelphia)', input: { billing: { country: 'US', latitude: 39.95, longitude: -75.17 } }, fires: false },
    { name: 'billing over 500 km (New York - Chicago)', input: { billing: { country: 'US', latitude: 41.88, longitude: -87.63 } }, fires: true, detail: 'km' },
    { name: 'invalid billing coordinates are PF10006, not a distance', input: { billing: { latitude: 0, longitude: 0 } }, fires: false },
    { name: 'bogon IP', input: { billing: { country: 'FR' } }, signals: { ip: { bogon: true } }, fires: false },
    { name: 'digital goods', input: { isDigitalProducts: true, billing: { country: 'FR' } }, fires: true },
  ],
  PF10018: [
    { name: 'none', fires: false },
    { name: 'one fraud', signals: { labels: { customerFraud30d: 1 } }, fires: false },
    { name: 'two frauds', signals: { labels: { customerFraud30d: 2 } }, fires: true },
  ],
  PF10019: [
    { name: 'no amount', signals: { amounts: { customer: history([10, 10, 10]) } }, fires: false },
    { name: 'no history', input: { amount: 100 }, fires: false },
    { name: 'history of 2', input: { amount: 1000 }, signals: { amounts: { customer: history([10, 12]) } }, fires: false },
    { name: 'usual', input: { amount: 12 }, signals: { amounts: { customer: history([10, 12, 14, 11]) } }, fires: false },
    { name: 'a little more than a flat history (floor on sd)', input: { amount: 120 }, signals: { amounts: { customer: history([100, 100, 100]) } }, fires: false },
    { name: 'unusually high', input: { amount: 300 }, signals: { amounts: { customer: history([10, 12, 14, 11]) } }, fires: true, detail: 'high' },
    { name: 'unusually low', input: { amount: 1 }, signals: { amounts: { customer: history([100, 120, 110]) } }, fires: true, detail: 'low' },
  ],
  PF10020: [
    { name: 'no registration date', fires: false },
    { name: 'registered a year ago', input: { registrationDate: NOW_S - 365 * 86400 }, fires: false },
    { name: 'registered 2 hours ago', input: { registrationDate: NOW_S - 7200 }, fires: true, detail: '2.0 hours', grade: 'lt1d' },
    { name: 'registered 30 seconds before', input: { registrationDate: NOW_S - 30 }, fires: true, detail: '30 seconds', grade: 'lt1m' },
    { name: 'registered 5 minutes before', input: { registrationDate: NOW_S - 300 }, fires: true, grade: 'lt10m' },
    { name: 'registered 30 minutes before', input: { registrationDate: NOW_S - 1800 }, fires: true, grade: 'lt1h' },
    { name: 'registered 25 hours ago', input: { registrationDate: NOW_S - 25 * 3600 }, fires: false },
    { name: 'digital goods: 48 hours ago', input: { isDigitalProducts: true, registrationDate: NOW_S - 48 * 3600 }, fires: true, grade: 'lt3d' },
    { name: 'digital goods: 73 hours ago', input: { isDigitalProducts: true, registrationDate: NOW_S - 73 * 3600 }, fires: false },
    { name: 'a few minutes in the future (clock skew)', input: { registrationDate: NOW_S + 300 }, fires: true },
    { name: 'far in the future (milliseconds sent?) is ignored', input: { registrationDate: NOW_S * 1000 }, fires: false },
  ],
  PF10021: [
    { name: 'unknown', fires: false },
    { name: '2 cards in a day, 4 in a week', signals: { velocity: { customerCardsLastDay: 2, customerCards7d: 4 } }, fires: false },
    { name: '3 cards in a day', signals: { velocity: { customerCardsLastDay: 3 } }, fires: true },
    { name: '5 cards in a week', signals: { velocity: { customerCards7d: 5 } }, fires: true },
    { name: 'digital goods: 2 cards in a day', input: { isDigitalProducts: true }, signals: { velocity: { customerCardsLastDay: 2 } }, fires: true },
  ],
  PF10022: [
    { name: 'not listed', fires: false },
    { name: 'IP listed', signals: { lists: { ip: true } }, fires: true },
    { name: 'another list does not count', signals: { lists: { email: true } }, fires: false },
  ],
  PF10023: [
    { name: 'not listed', fires: false },
    { name: 'email listed', signals: { lists: { email: true } }, fires: true },
  ],
  PF10024: [
    { name: 'not listed', fires: false },
    { name: 'phone listed', signals: { lists: { phone: true } }, fires: true },
  ],
  PF10025: [
    { name: 'not listed', fires: false },
    { name: 'card listed', signals: { lists: { card: true } }, fires: true },
  ],
  PF10026: [
    { name: 'not listed', fires: false },
    { name: 'customer listed', signals: { lists: { customer: true } }, fires: true },
  ],
  PF10027: [
    { name: 'no card or device', fires: false },
    { name: 'first attempt', signals: { velocity: { cardLast10Minutes: 0, cardLastMinute: 0 } }, fires: false },
    { name: 'one earlier attempt', signals: { velocity: { cardLast10Minutes: 1 } }, fires: true, grade: '1' },
    { name: 'three earlier attempts, one in the last minute', signals: { velocity: { cardLast10Minutes: 3, cardLastMinute: 1 } }, fires: true, grade: '2', detail: 'last minute' },
    { name: 'twelve earlier attempts', signals: { velocity: { cardLast10Minutes: 12 } }, fires: true, grade: '8' },
    { name: 'small amounts count double', input: { amount: 1 }, signals: { velocity: { cardLast10Minutes: 2 } }, fires: true, grade: '4', detail: 'small amount' },
    { name: 'a device with 5 attempts rotating cards', signals: { velocity: { cardLast10Minutes: 0, deviceLast10Minutes: 5 } }, fires: true, grade: '2', detail: 'device' },
    { name: 'a device with 4 attempts', signals: { velocity: { deviceLast10Minutes: 4 } }, fires: false },
    { name: 'a busy BIN at a busy shop (40 cards, ordinary amount)', input: { amount: 60 }, signals: { velocity: { binCardsLast10Minutes: 40 } }, fires: false },
    { name: 'a BIN attack with small amounts: 5 cards', input: { amount: 1 }, signals: { velocity: { binCardsLast10Minutes: 5 } }, fires: true, grade: '4', detail: 'small amount' },
    { name: 'small amounts, 4 cards of the BIN', input: { amount: 1 }, signals: { velocity: { binCardsLast10Minutes: 4 } }, fires: false },
  ],
  PF10028: [
    { name: 'nothing known', fires: false },
    { name: 'two emails', signals: { velocity: { cardEmailsLastDay: 2, cardIpsLastDay: 2 } }, fires: false },
    { name: 'three emails', signals: { velocity: { cardEmailsLastDay: 3 } }, fires: true, grade: '3', detail: 'emails' },
    { name: 'twelve IPs', signals: { velocity: { cardIpsLastDay: 12 } }, fires: true, grade: '5', detail: 'IP' },
  ],
  PF10029: [
    { name: 'all US', input: { shipping: { country: 'US' } }, fires: false },
    { name: 'nothing but the IP', signals: { bin: null, phone: null }, fires: false },
    { name: 'card US, IP DE', signals: { ip: { country: 'DE' } }, fires: true, grade: '2', detail: 'IP DE' },
    { name: 'card US, IP DE, shipping NG', input: { shipping: { country: 'NG' } }, signals: { ip: { country: 'DE' } }, fires: true, grade: '3' },
    { name: 'phone NG, everything else US', input: { shipping: { country: 'US' } }, signals: { phone: { country: 'NG' } }, fires: true, grade: '2', detail: 'phone NG' },
    { name: 'a private IP does not count', input: { shipping: { country: 'US' } }, signals: { ip: { country: null, bogon: true } }, fires: false },
    { name: 'shipping 4,000 km from the IP in the same country', input: { shipping: { country: 'US', latitude: 34.05, longitude: -118.24 } }, fires: true, grade: '2', detail: 'km' },
    { name: 'shipping near the IP', input: { shipping: { country: 'US', latitude: 40.73, longitude: -73.99 } }, fires: false },
  ],
  PF10030: [
    { name: 'nothing known', fires: false },
    { name: 'a family device (2 accounts)', signals: { velocity: { deviceCustomers30d: 2, ipCustomersLastDay: 4 } }, fires: false },
    { name: 'a device of 3 accounts', signals: { velocity: { deviceCustomers30d: 3 } }, fires: true, grade: 'device3' },
    { name: 'a device of 7 accounts', signals: { velocity: { deviceCustomers30d: 7 } }, fires: true, grade: 'device5' },
    { name: 'an IP of 5 accounts in a day', signals: { velocity: { ipCustomersLastDay: 5 } }, fires: true, grade: 'ip', detail: 'IP' },
  ],
  PF10031: [
    { name: 'no account history', input: { amount: 5000 }, fires: false },
    { name: 'usual amount', input: { amount: 22 }, signals: { amounts: { account: history(Array.from({ length: 40 }, (_, i) => 10 + i)) } }, fires: false },
    { name: 'high amount, new customer', input: { amount: 2500 }, signals: { amounts: { account: history(Array.from({ length: 40 }, (_, i) => 10 + i)) } }, fires: true, detail: 'new customer' },
    { name: 'high amount, returning customer', input: { amount: 2500 }, signals: { velocity: { customerHistory: 3 }, amounts: { account: history(Array.from({ length: 40 }, (_, i) => 10 + i)) } }, fires: false },
    { name: 'high amount, customer with older amounts', input: { amount: 2500 }, signals: { amounts: { customer: history([40, 50]), account: history(Array.from({ length: 40 }, (_, i) => 10 + i)) } }, fires: false },
  ],
  PF10032: [
    { name: 'not a forwarder', fires: false },
    { name: "a forwarder's warehouse", signals: { reshipper: { kind: 'address', service: 'Example Forwarding' } }, fires: true, grade: 'address', detail: 'Example Forwarding' },
    { name: 'a forwarder ZIP code', signals: { reshipper: { kind: 'zip', service: 'forwarders' } }, fires: true, grade: 'zip' },
  ],
  PF10033: [
    { name: 'nothing known', fires: false },
    { name: 'a quiet BIN: 4 cards in ten minutes', signals: { velocity: { binAnyCardsLast10Minutes: 4, binUsualPer10Minutes: 0 } }, fires: false },
    { name: 'a quiet BIN: 5 cards in ten minutes, ordinary amounts', input: { amount: 80 }, signals: { velocity: { binAnyCardsLast10Minutes: 5, binUsualPer10Minutes: 0.007 } }, fires: true, grade: '5', detail: 'BIN in the last 10 minutes 5' },
    { name: 'a quiet BIN: 9 cards in two minutes', signals: { velocity: { binAnyCardsLastMinute: 5, binAnyCardsLast10Minutes: 9, binUsualPer10Minutes: 0 } }, fires: true, grade: '8' },
    { name: 'a popular BIN at a busy shop (25 cards in ten minutes, 25 usual)', signals: { velocity: { binAnyCardsLastMinute: 4, binAnyCardsLast10Minutes: 25, binUsualPer10Minutes: 25 } }, fires: false },
    { name: 'the popular BIN attacked (100 cards in ten minutes, 20 usual)', signals: { velocity: { binAnyCardsLast10Minutes: 100, binUsualPer10Minutes: 20 } }, fires: true, grade: '8', detail: 'limit 62' },
    { name: 'a BIN of 60 a day: 6 cards in ten minutes is within its limit', signals: { velocity: { binAnyCardsLastMinute: 2, binAnyCardsLast10Minutes: 6, binUsualPer10Minutes: 0.4 } }, fires: false },
    { name: 'the same BIN: 5 cards in one minute', signals: { velocity: { binAnyCardsLastMinute: 5, binAnyCardsLast10Minutes: 6, binUsualPer10Minutes: 0.4 } }, fires: true, grade: '5', detail: 'last minute 5' },
    { name: 'a BIN busy this last hour (40 before the last ten minutes): 12 cards in ten minutes is its pace', signals: { velocity: { binAnyCardsLast10Minutes: 12, binUsualPer10Minutes: 8 } }, fires: false },
    { name: 'a device with 3 cards in ten minutes', signals: { velocity: { deviceCardsLast10Minutes: 3, deviceCardsLastMinute: 1 } }, fires: true, grade: '3', detail: 'device' },
    { name: 'a device with 2 cards (a retry after a decline)', signals: { velocity: { deviceCardsLast10Minutes: 2 } }, fires: false },
    { name: 'an IP with 4 cards in ten minutes', signals: { velocity: { ipCardsLast10Minutes: 4, ipCardsLastMinute: 2 } }, fires: false },
    { name: 'an IP with 3 cards in one minute', signals: { velocity: { ipCardsLast10Minutes: 3, ipCardsLastMinute: 3 } }, fires: true, grade: '3', detail: 'last minute' },
    { name: 'an IP with 12 cards in ten minutes', signals: { velocity: { ipCardsLast10Minutes: 12 } }, fires: true, grade: '8' },
    { name: 'digital goods: an IP with 4 cards', input: { isDigitalProducts: true }, signals: { velocity: { ipCardsLast10Minutes: 4 } }, fires: true, grade: '3' },
  ],
  SVC2001: [
    { name: 'no evidence', fires: false },
    { name: 'decayed below 0.5', signals: { labels: { customer: 0.49 } }, fires: false },
    { name: 'evidence 0.5', signals: { labels: { customer: 0.5 } }, fires: true },
    { name: 'shared evidence is SVC2002', signals: { labels: { shared: 1 } }, fires: false },
  ],
  SVC2002: [
    { name: 'no evidence', fires: false },
    { name: 'decayed below 0.5', signals: { labels: { shared: 0.3 } }, fires: false },
    { name: 'evidence 1', signals: { labels: { shared: 1 } }, fires: true },
    { name: 'confirmed_fraud list', signals: { lists: { confirmedFraud: true } }, fires: true, detail: 'confirmed_fraud' },
  ],
};

describe('payment rules: table', () => {
  for (const id of PAYMENT_RULE_IDS) {
    describe(id, () => {
      for (const c of CASES[id]) {
        it(`${c.fires ? 'fires' : 'does not fire'}: ${c.name}`, () => {
          const h = run(id, c.input, c.signals);
          if (!c.fires) {
            assert.equal(h, null);
            return;
          }
          assert.ok(h, `${id} should fire`);
          assert.equal(h.id, id);
          assert.equal(h.description, PAYMENT_RULES.find((r) => r.id === id)!.description);
          if (c.grade !== undefined) assert.equal(h.grade, c.grade);
          const key = h.grade === undefined ? id : `${id}:${h.grade}`;
          assert.ok(PRIOR_LOG_ODDS[key]! > 0, `${key} has a documented prior`);
          if (c.detail !== undefined) assert.ok(h.detail?.includes(c.detail), `"${h.detail}" should mention "${c.detail}"`);
        });
      }
    });
  }

  it('every rule has cases that fire and cases that do not', () => {
    for (const id of PAYMENT_RULE_IDS) {
      if (id !== 'PF10015') assert.ok(CASES[id].some((c) => c.fires), `${id} fires somewhere`);
      assert.ok(CASES[id].some((c) => !c.fires), `${id} stays quiet somewhere`);
    }
  });
});

describe('payment rules: missing inputs', () => {
  it('an empty payment with no signals fires nothing', () => {
    const input = emptyInput();
    const signals = cleanSignals({ ip: null, email: null, phone: null, bin: null });
    const ctx: RuleContext = { countries: countryRiskLists(), digital: false };
    for (const r of PAYMENT_RULES) assert.equal(r.check(input, signals, ctx), null, r.id);
  });

  it('the same empty payment for digital goods fires nothing either', () => {
    const input = emptyInput({ isDigitalProducts: true });
    const signals = cleanSignals({ ip: null, email: null, phone: null, bin: null });
    const ctx: RuleContext = { countries: countryRiskLists(), digital: true };
    for (const r of PAYMENT_RULES) assert.equal(r.check(input, signals, ctx), null, r.id);
  });
});

describe('payment rules: the table itself', () => {
  it('ids are unique, in order, with a description and a documented prior (PF10015 has none)', () => {
    const ids = PAYMENT_RULES.map((r) => r.id);
    assert.deepEqual(ids, [...PAYMENT_RULE_IDS]);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, 35);
    for (const r of PAYMENT_RULES) {
      assert.ok(r.description.length > 0);
      if (r.id === 'PF10015') assert.equal(PRIOR_LOG_ODDS[r.id], undefined);
      else assert.ok(PRIOR_LOG_ODDS[r.id]! > 0, r.id);
    }
    for (const key of Object.keys(PRIOR_LOG_ODDS)) assert.ok((PAYMENT_RULE_IDS as readonly string[]).includes(key.split(':')[0]!), key);
  });

  it('PF10027 reads BIN windows of exactly the small amounts the store keeps in them', () => {
    assert.equal(LIMITS.smallAmount, BIN_WINDOW_AMOUNT_BELOW);
  });

  it("PF10033: a BIN's usual count in ten minutes is the larger of its day's and its hour's, before the last ten minutes", () => {
    // 150 scorings in the day, 20 of them in the last ten minutes: 130 over 143 ten-minute windows; the hour has none older.
    assert.equal(binUsualPer10Minutes(150, 20, 20), 130 / 143);
    // A busy evening: 40 in the 50 minutes before the last ten is 8 per ten minutes, above the day's 0.9.
    assert.equal(binUsualPer10Minutes(150, 60, 20), 8);
    // An attack alone in the last ten minutes has no usual count behind it.
    assert.equal(binUsualPer10Minutes(9, 9, 9), 0);
    assert.equal(binSurgeLimit(0, { countries: countryRiskLists(), digital: false }), 5);
    assert.equal(binSurgeLimit(0, { countries: countryRiskLists(), digital: true }), 4);
    assert.equal(binSurgeLimit(8, { countries: countryRiskLists(), digital: false }), 31);
    assert.equal(binSurgeLimit(20, { countries: countryRiskLists(), digital: false }), 62);
    assert.equal(LIMITS.binRows, VELOCITY_ROWS);
  });

  it('PF10015: the learned model adds at least 0.5 log-odds and the score is 50 or more', () => {
    assert.equal(modelFlagHit(0.49, 90), null);
    assert.equal(modelFlagHit(2, 49.99), null);
    assert.equal(modelFlagHit(NaN, 90), null);
    assert.equal(modelFlagHit(0.5, 50)?.id, 'PF10015');
  });

  it('digital goods: thresholds are stricter (lower counts, longer registration window)', () => {
    for (const [key, t] of Object.entries(THRESHOLDS)) {
      if (key === 'registrationHours') assert.ok(t.digital > t.standard, key);
      else assert.ok(t.digital <= t.standard, key);
    }
  });

  it('digital goods: boosted rules get × 1.5 log-odds, others keep their prior', () => {
    assert.equal(DIGITAL_FACTOR, 1.5);
    assert.deepEqual([...DIGITAL_BOOSTED].sort(), ['PF10003', 'PF10013', 'PF10014', 'PF10017', 'PF10029']);
    assert.equal(featurePrior('rule:PF10003:proxy', true), 1.5 * PRIOR_LOG_ODDS['PF10003:proxy']!);
    assert.equal(featurePrior('rule:PF10003:proxy', false), PRIOR_LOG_ODDS['PF10003:proxy']);
    assert.equal(featurePrior('rule:PF10022', true), PRIOR_LOG_ODDS.PF10022);
    assert.equal(featurePrior('amount_bucket:3', true), 0);
    assert.equal(featurePrior('rule:PF99999', false), 0);
  });
});

describe('payment rules: context and helpers', () => {
  it('country lists can be overridden', () => {
    const ctx = { countries: countryRiskLists({ customer: ['fr'], card: [] }) };
    assert.ok(run('PF10009', { customer: { country: 'FR' } }, {}, ctx));
    assert.equal(run('PF10009', { customer: { country: 'KP' } }, {}, ctx), null);
    assert.equal(run('PF10010', {}, { bin: { country: 'IR' } }, ctx), null);
  });

  it('country list overrides are validated', () => {
    assert.throws(() => countryRiskLists({ card: ['USA'] }), /alpha-2/);
    assert.equal(countryRiskLists().customer, HIGH_FRAUD_CUSTOMER_COUNTRIES);
    assert.equal(countryRiskLists().card, HIGH_RISK_CARD_COUNTRIES);
    assert.ok(HIGH_RISK_CARD_COUNTRIES.has('CU') && !HIGH_FRAUD_CUSTOMER_COUNTRIES.has('CU'));
  });

  it('haversine: New York - London is about 5,570 km; a point to itself is 0', () => {
    assert.ok(Math.abs(haversineKm(40.7128, -74.006, 51.5074, -0.1278) - 5570) < 15);
    assert.equal(haversineKm(10, 20, 10, 20), 0);
    assert.ok(Math.abs(haversineKm(0, -179.5, 0, 179.5) - 111.2) < 0.5);
  });

  it('amountZ floors the standard deviation', () => {
    const flat = history([100, 100, 100]);
    assert.equal(flat.sdLog, 0);
    assert.ok(Number.isFinite(amountZ(1000, flat)));
  });
});
