/**
 * What a domestic scheme alone says about a card (docs/api-decisions.md "BIN"): the issuing
 * country, used when no issuer record gives one, and `debit` for the schemes that issue nothing
 * else, used when no record gives a type. The currency follows from the country. Keys are the
 * scheme names the engine answers with (`name`, or `coName` for a co-badged card).
 *
 * Country: each is its country's own network, issued by that country's banks:
 *   mada SA (Saudi Payments Network, run by the Saudi Central Bank; Wikipedia "Saudi Payments Network"),
 *   RuPay IN (NPCI; Wikipedia "RuPay"), Mir RU (NSPK; Wikipedia "Mir (payment system)"),
 *   Elo BR and Hipercard BR (Wikipedia "Elo (card association)", "Hipercard"),
 *   Troy TR (BKM; Wikipedia "Troy (payment system)"), Verve NG (Interswitch; Wikipedia "Verve International"),
 *   Meeza EG (the Central Bank of Egypt's national payment scheme, launched 2018: egypttoday.com
 *   "Egypt issues 23M Meeza cards", 2021-01-26), Dankort DK ("Dankort is Danish and only available
 *   in Denmark": thelocal.dk, 2023-07-21).
 * A few of these are issued abroad in small numbers (Mir by some banks of neighbouring countries,
 * Verve and RuPay by a few foreign partner banks): the scheme's country is a default, and an
 * issuer record's country always wins.
 *
 * Debit only: mada ("mada depends on the direct link to a bank account (through a Debit Card)":
 * mada.com.sa "How mada works") and Dankort ("A Visa/Dankort card is a debit card": Danske Bank,
 * danskebank.dk Visa-Dankort page; Wikipedia "Dankort": the national debit card). Not the others:
 * RuPay, Mir, Elo, Troy and Verve issue credit cards too, Hipercard is mostly credit, and Meeza
 * has prepaid and credit products, so their type stays unknown without a record.
 */
export interface DomesticFacts {
  /** ISO 3166-1 alpha-2. */
  country: string;
  debitOnly: boolean;
}

const DOMESTIC: ReadonlyMap<string, DomesticFacts> = new Map([
  ['mada', { country: 'SA', debitOnly: true }],
  ['RuPay', { country: 'IN', debitOnly: false }],
  ['Mir', { country: 'RU', debitOnly: false }],
  ['Elo', { country: 'BR', debitOnly: false }],
  ['Hipercard', { country: 'BR', debitOnly: false }],
  ['Troy', { country: 'TR', debitOnly: false }],
  ['Verve', { country: 'NG', debitOnly: false }],
  ['Meeza', { country: 'EG', debitOnly: false }],
  ['Dankort', { country: 'DK', debitOnly: true }],
]);

/** The facts a domestic scheme implies, or null for an international scheme (or none). */
export function domesticFacts(scheme: string | null): DomesticFacts | null {
  return scheme === null ? null : (DOMESTIC.get(scheme) ?? null);
}

/** The domestic schemes, for tests and docs. */
export const DOMESTIC_SCHEMES: ReadonlyMap<string, DomesticFacts> = DOMESTIC;
