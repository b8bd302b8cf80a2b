/**
 * Domestic debit schemes recognised by range (docs/api-decisions.md "BIN"). A range inside the
 * Visa or Mastercard space is a co-badged card (`name` Visa/Mastercard, `coName` the local scheme);
 * a range outside it is the local scheme alone. Sources: the mada BIN list that Saudi acquirers
 * publish for routing (HyperPay, PayTabs, Checkout.com integration guides), NPCI's RuPay IIN
 * ranges, Nets' Dankort ranges, and the Meeza range of Egypt's national switch. Elo, Mir, Verve,
 * Troy and Hipercard come from credit-card-type. Cartes Bancaires and Interac publish no ranges
 * of their own (their cards are Visa/Mastercard BINs of French and Canadian issuers): not detected.
 */

export interface LocalScheme {
  name: string;
  /** Inclusive ranges of equal-length prefixes. */
  ranges: ReadonlyArray<readonly [string, string]>;
}

/** mada (Saudi Arabia): 6-digit BINs; 4xxxxx are co-badged Visa, 5[1-5]/2[2-7] Mastercard, the rest mada only. */
export const MADA_BINS: readonly string[] = [
  '588845', '440647', '440795', '446404', '457865', '968208', '457997', '474491', '636120', '417633', '468540', '468541',
  '468542', '468543', '968201', '446393', '409201', '458456', '484783', '968205', '462220', '455708', '410621', '455036',
  '486094', '486095', '486096', '504300', '440533', '489318', '489319', '445564', '968211', '410685', '406996', '432328',
  '428671', '428672', '428673', '968206', '446672', '543357', '434107', '431361', '604906', '521076', '588850', '968202',
  '529415', '535825', '543085', '524130', '554180', '549760', '588848', '968209', '524514', '529741', '537767', '535989',
  '536023', '513213', '585265', '588983', '588982', '589005', '508160', '531095', '530906', '532013', '605141', '968204',
  '422817', '422818', '422819', '428331', '483010', '483011', '483012', '589206', '968207', '419593', '439954', '407197',
  '407395', '520058', '530060', '531196', '412565', '406136', '428367', '440682', '442463', '455707', '465828', '484784',
  '486093', '543359', '549184', '552363', '558563', '559406', '585288', '588847', '636160', '968203', '968210',
];

export const LOCAL_SCHEMES: readonly LocalScheme[] = [
  { name: 'mada', ranges: MADA_BINS.map((b) => [b, b] as const) },
  { name: 'RuPay', ranges: [['508500', '508999'], ['606985', '607984'], ['608001', '608500'], ['652150', '653149']] },
  { name: 'Dankort', ranges: [['5019', '5019'], ['4571', '4571']] },
  { name: 'Meeza', ranges: [['507803', '507810']] },
];

interface Entry { lo: string; hi: string; len: number; scheme: string }

const ENTRIES: Entry[] = LOCAL_SCHEMES.flatMap((s) => s.ranges.map(([lo, hi]) => ({ lo, hi, len: lo.length, scheme: s.name })))
  // Longer (more specific) prefixes first.
  .sort((a, b) => b.len - a.len);

/** The local scheme whose range holds the number's leading digits, or null. */
export function localScheme(leading: string): string | null {
  for (const e of ENTRIES) {
    if (leading.length < e.len) continue;
    const p = leading.slice(0, e.len);
    if (p >= e.lo && p <= e.hi) return e.scheme;
  }
  return null;
}
