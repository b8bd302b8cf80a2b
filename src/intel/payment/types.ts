/**
 * Vocabulary of the payment engine (spec "POST /scoring/payment", decisions.md "Payment rules beyond
 * PF10017"). The engine is pure: the payment service (src/learning/payment-service.ts) gathers the
 * signals below from the other engines and the store, the engine turns input + signals into a score.
 */

/** An address block of the payment data (customer, billing or shipping), normalised. */
export interface PaymentPlace {
  /** ISO 3166-1 alpha-2, upper case; undefined when absent. */
  country?: string;
  region?: string;
  city?: string;
  zip?: string;
  street?: string;
  /** `<prefix>_street2` (added by the engine's parser; optional). */
  street2?: string;
  latitude?: number;
  longitude?: number;
}

export interface CartItem {
  id?: string;
  name?: string;
  quantity?: number;
  price?: number;
  categoryId?: string;
}

/** The `data` object after validation: strings trimmed, numbers parsed, absent fields undefined. */
export interface PaymentInput {
  action?: string;
  websiteDomain?: string;
  websiteName?: string;
  merchantId?: string;
  shipmentId?: string;
  /** `transaction_id` as text (numbers keep their decimal form). */
  transactionId?: string;
  amount?: number;
  /** ISO 4217, upper case. */
  currency?: string;
  cartItems: CartItem[];
  isDigitalProducts: boolean;
  coupon?: string;
  customerId?: string;
  firstName?: string;
  lastName?: string;
  placeOfBirth?: string;
  /** As sent; the service parses it with the IP engine. */
  ip?: string;
  customer: PaymentPlace;
  billing: PaymentPlace;
  shipping: PaymentPlace;
  deviceId?: string;
  /** As sent (digits, maybe with +). */
  phone?: string;
  /** UNIX seconds. */
  registrationDate?: number;
  balance?: number;
  dateOfBirth?: string;
  email?: string;
  twoFactor?: boolean;
  userAgent?: string;
  paymentType?: string;
  cardName?: string;
  /** Digits only (spaces and dashes removed), at least 6. Never stored or logged. */
  cardNumber?: string;
  cvvResult?: boolean;
}

/** IP facts the IP engine gives for `customer_ip`. */
export interface IpSignal {
  /** false when customer_ip is not an address. */
  valid: boolean;
  bogon: boolean;
  isTor: boolean;
  isProxy: boolean;
  /** VPN, public proxy... as the IP result names it; null when not a proxy. */
  proxyType: string | null;
  isHosting: boolean;
  isRelay: boolean;
  isBot: boolean;
  /** The IP engine's risk 0-100, after fraud labels on the address. */
  risk: number;
  country: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface EmailSignal {
  valid: boolean;
  disposable: boolean;
  /** The email engine's score 0-3 (2 and up is spam, as the spam_email event). */
  score: number;
  reason: string;
}

export interface PhoneSignal {
  valid: boolean;
  disposable: boolean;
  /** libphonenumber type (MOBILE, VOIP, PREMIUM_RATE...), null unknown. */
  type: string | null;
  /** The answer's `lineType` (mobile, fixed_line, voip, toll_free, premium_rate...; unknown). */
  lineType: string;
  reason: string | null;
  /** The country of the number (ISO alpha-2, from its calling code and prefix), null unknown. */
  country: string | null;
}

export interface BinSignal {
  valid: boolean;
  /** International scheme as the BIN result names it (Visa, Mastercard...), null unknown. */
  scheme: string | null;
  /** Local co-badged scheme (mada, RuPay...), null none. */
  coScheme: string | null;
  /** Issuing country, ISO alpha-2, null unknown. */
  country: string | null;
  reason: string | null;
}

/**
 * Exact sliding-window counts over the account's earlier live scorings (this one excluded), each
 * undefined when the transaction lacks the identity it is keyed by.
 */
export interface VelocitySignal {
  ipLastHour?: number;
  ipLastDay?: number;
  customerLastHour?: number;
  customerLastDay?: number;
  cardLastDay?: number;
  deviceLastDay?: number;
  /** Distinct locations of the customer in 30 days. */
  customerLocations30d?: number;
  /** Distinct customers (customer_id) of the card in 30 days. */
  cardCustomers30d?: number;
  /** Distinct cards of the customer in 24 hours and in 7 days. */
  customerCardsLastDay?: number;
  customerCards7d?: number;
  /** Card testing: attempts with the card in the last minute and ten minutes, with the device in ten minutes. */
  cardLastMinute?: number;
  cardLast10Minutes?: number;
  deviceLast10Minutes?: number;
  /** Card testing across one BIN: distinct cards of the card's BIN in the last ten minutes (this one excluded). */
  binCardsLast10Minutes?: number;
  /**
   * A BIN attack with ordinary amounts (PF10033): distinct cards of the card's BIN, whatever their amount, in the
   * last minute and ten minutes (at most VELOCITY_ROWS: the service clamps Redis's counts to the store's bounded read).
   */
  binAnyCardsLastMinute?: number;
  binAnyCardsLast10Minutes?: number;
  /**
   * The BIN's usual number of scorings in ten minutes at this account (binUsualPer10Minutes in rules.ts, from its
   * scorings before the last ten minutes), read at most once a minute per instance and BIN.
   */
  binUsualPer10Minutes?: number;
  /** Distinct cards from the device, and from the IP address, in the last minute and ten minutes (PF10033). */
  deviceCardsLastMinute?: number;
  deviceCardsLast10Minutes?: number;
  ipCardsLastMinute?: number;
  ipCardsLast10Minutes?: number;
  /** Distinct emails and IP addresses that used the card in 24 hours. */
  cardEmailsLastDay?: number;
  cardIpsLastDay?: number;
  /** Distinct customers of the card in the last hour; distinct cards of the customer in the last hour. */
  cardCustomersLastHour?: number;
  customerCardsLastHour?: number;
  /** Fraud rings: distinct customers of the device in 30 days, of the IP in 24 hours. */
  deviceCustomers30d?: number;
  ipCustomersLastDay?: number;
  /** Earlier scorings of the customer (customer_id) in 30 days (the longest window Redis keeps). */
  customerHistory?: number;
}

/** Which of the account's blacklists the transaction's identities are on. */
export interface ListSignal {
  ip: boolean;
  /** The email or its domain. */
  email: boolean;
  phone: boolean;
  /** card_bin or card_country. */
  card: boolean;
  customer: boolean;
  /** The automatic confirmed_fraud list (any identity). */
  confirmedFraud: boolean;
}

/** Decayed fraud evidence (fraud minus legit, half-life 90 days; 0 when none or offset). */
export interface LabelSignal {
  /** Customer identities: customer_id, email, phone, userID. Drives SVC2001. */
  customer: number;
  /** Shared identities: device, card, IP. Drives SVC2002. */
  shared: number;
  /** Transactions of this customer with a fraud outcome in the last 30 days (PF10018). */
  customerFraud30d: number;
}

/** Amount history in the transaction's currency (ln(1 + amount) statistics). */
export interface AmountHistory {
  count: number;
  meanLog: number;
  sdLog: number;
  max: number;
}

export interface ModelSignal {
  /**
   * The account model's learned log-odds of this transaction's features (feature → weight; absent = 0),
   * added to the rules' documented priors (prior.ts). Empty for an account without labels, and in test mode.
   */
  learned: ReadonlyMap<string, number>;
}

/** The shipping address matched a known package forwarder (PF10032). */
export interface ReshipperSignal {
  /** `address`: the forwarder's warehouse street address; `zip`: a postal code dominated by forwarders. */
  kind: 'address' | 'zip';
  /** The forwarding service named by the list. */
  service: string;
}

export interface PaymentSignals {
  now: Date;
  ip: IpSignal | null;
  email: EmailSignal | null;
  phone: PhoneSignal | null;
  bin: BinSignal | null;
  velocity: VelocitySignal;
  lists: ListSignal;
  labels: LabelSignal;
  model: ModelSignal;
  amounts: { customer: AmountHistory | null; account: AmountHistory | null };
  /** The shipping address on the package-forwarder list; null when it is not, or no list is loaded. */
  reshipper: ReshipperSignal | null;
}

/** One rule's verdict. */
export interface RuleHit {
  id: string;
  description: string;
  /** The grade of a graded rule (`lt1m`, `tor`...): its model feature is `rule:<id>:<grade>` (prior.ts). */
  grade?: string;
  /** What exactly fired (for the `explain=yes` contribution); the rule's description stays fixed. */
  detail?: string;
}

/**
 * One part of the score for `explain=yes`. `logOdds` add up to the logit of the score (base + rules +
 * model); `points` add up exactly to `score` (docs/payment.md "How the score is made").
 */
export interface PaymentContribution {
  source: 'base' | 'rule' | 'model';
  id: string;
  points: number;
  logOdds: number;
  detail?: string;
}

/** The payment result of the spec (before the policy stage adds custom_rules_applied). */
export interface PaymentScore {
  score: number;
  rules: Array<{ id: string; description: string }>;
  rulesChecked: number;
  rulesDetected: number;
  contributions: PaymentContribution[];
}
