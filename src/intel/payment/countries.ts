/**
 * Default country lists of rules PF10009 (customer country is high-fraud) and PF10010 (card issued
 * in a high-risk country), documented in docs/payment.md "Country lists". Both are configurable:
 * the service passes overrides to countryRiskLists().
 *
 * Source: the Financial Action Task Force (FATF) public statements of 24 October 2025, the latest
 * of 2025:
 * - "High-Risk Jurisdictions subject to a Call for Action - 24 October 2025" (the "black list"),
 *   published with the other statements at
 *   https://www.fatf-gafi.org/en/publications/High-risk-and-other-monitored-jurisdictions.html
 * - "Jurisdictions under Increased Monitoring - 24 October 2025" (the "grey list"; that plenary
 *   removed Burkina Faso, Mozambique, Nigeria and South Africa from the June 2025 list):
 *   https://www.fatf-gafi.org/en/publications/High-risk-and-other-monitored-jurisdictions/increased-monitoring-october-2025.html
 * The card list adds Cuba, under the comprehensive US embargo (OFAC, Cuban Assets Control
 * Regulations, 31 CFR part 515): a card issued there cannot run on the international schemes,
 * so one presented to a merchant outside Cuba is a forgery or a test.
 *
 * The FATF lists rate anti-money-laundering regimes, not card fraud; they are a public, dated,
 * neutral starting point. FATF revises them three times a year (February, June, October); an
 * operator who follows them, or who has their own fraud statistics, overrides these defaults.
 */

/** FATF "High-Risk Jurisdictions subject to a Call for Action", 24 October 2025. */
export const FATF_CALL_FOR_ACTION: readonly string[] = [
  'KP', // Democratic People's Republic of Korea
  'IR', // Iran
  'MM', // Myanmar
];

/** FATF "Jurisdictions under Increased Monitoring", 24 October 2025. */
export const FATF_INCREASED_MONITORING: readonly string[] = [
  'DZ', // Algeria
  'AO', // Angola
  'BO', // Bolivia
  'BG', // Bulgaria
  'CM', // Cameroon
  'CI', // Côte d'Ivoire
  'CD', // Democratic Republic of the Congo
  'HT', // Haiti
  'KE', // Kenya
  'LA', // Lao PDR
  'LB', // Lebanon
  'MC', // Monaco
  'NA', // Namibia
  'NP', // Nepal
  'SS', // South Sudan
  'SY', // Syria
  'VE', // Venezuela
  'VN', // Vietnam
  'VG', // Virgin Islands (UK)
  'YE', // Yemen
];

/** Date of the lists above (docs/payment.md names it too). */
export const COUNTRY_LISTS_AS_OF = '2025-10-24';

/** PF10009 default: customer countries treated as high-fraud (FATF call for action + increased monitoring). */
export const HIGH_FRAUD_CUSTOMER_COUNTRIES: ReadonlySet<string> = new Set([...FATF_CALL_FOR_ACTION, ...FATF_INCREASED_MONITORING]);

/** PF10010 default: card-issuing countries treated as high-risk (the FATF lists plus Cuba). */
export const HIGH_RISK_CARD_COUNTRIES: ReadonlySet<string> = new Set([...FATF_CALL_FOR_ACTION, ...FATF_INCREASED_MONITORING, 'CU']);

export interface CountryRiskLists {
  /** PF10009: ISO alpha-2, upper case. */
  customer: ReadonlySet<string>;
  /** PF10010: ISO alpha-2, upper case. */
  card: ReadonlySet<string>;
}

function normalise(codes: readonly string[], which: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const c of codes) {
    const code = c.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(code)) throw new Error(`country list (${which}): "${c}" is not an ISO 3166-1 alpha-2 code`);
    out.add(code);
  }
  return out;
}

/**
 * The lists the rules use: the defaults above, each replaced (not merged) by an override when one
 * is given. An empty override turns the rule off. Codes are trimmed and upper-cased; a code that
 * is not two letters throws (a configuration error, caught at start-up).
 */
export function countryRiskLists(overrides?: { customer?: string[]; card?: string[] }): CountryRiskLists {
  return {
    customer: overrides?.customer ? normalise(overrides.customer, 'customer') : HIGH_FRAUD_CUSTOMER_COUNTRIES,
    card: overrides?.card ? normalise(overrides.card, 'card') : HIGH_RISK_CARD_COUNTRIES,
  };
}
