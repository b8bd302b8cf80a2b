/**
 * Domestic debit schemes recognised by range (docs/api-decisions.md "BIN"). A range inside the
 * Visa or Mastercard space is a co-badged card (`name` Visa/Mastercard, `coName` the local scheme);
 * a range outside it is the local scheme alone. Elo, Mir, Verve, Troy and Hipercard come from
 * credit-card-type. Cartes Bancaires and Interac publish no ranges of their own (their cards are
 * Visa/Mastercard BINs of French and Canadian issuers): not detected. Sources of each table below.
 */

export interface LocalScheme {
  name: string;
  /** Inclusive ranges of equal-length prefixes. */
  ranges: ReadonlyArray<readonly [string, string]>;
}

/**
 * mada (Saudi Arabia): 6-digit BINs and 8-digit account ranges; 4xxxxx are co-badged Visa,
 * 5[1-5]/2[2-7] Mastercard, the rest mada only. The union of the lists that payment SDKs ship for
 * routing mada cards (checked 2026-11-22); every prefix is in at least one of them:
 *   moyasar/moyasar-flutter lib/src/utils/card_network_utils.dart (MadaUtil.madaRanges),
 *   moyasar/moyasar-react-native src/helpers/mada_util.ts,
 *   moyasar/moyasar-android-sdk sdk/src/main/java/com/moyasar/android/sdk/core/util/MadaRanges.kt,
 *   HyperpayOpenSource/Opencart-3-Plugin-All upload/catalog/controller/extension/payment/hyperpay.php (getMadaBlackBins),
 *   HyperpayOpenSource/Magento-2-Plugin Hyperpay/Extension/Model/Source/BlackBins.php.
 * Only in the Moyasar Android list: 400861, 439956, 489317, 588847, 588851; only in the Moyasar
 * Flutter list: 40545400, 49098000, 492464, 524940, 53973776. 40719700 and 40739500 (Flutter,
 * Magento) are inside 407197 and 407395 (all lists) and not repeated. Removed, being in no list:
 * 428367, 440682, 455707, 465828, 484784, 486093, 543359, 549184, 552363, 559406, 585288, 636160.
 */
export const MADA_BINS: readonly string[] = [
  '242030', '400861', '401757', '403024', '406136', '406996', '407197', '407395', '407520', '409201', '410621', '410685',
  '410834', '412565', '417633', '419593', '420132', '421141', '422817', '422818', '422819', '428331', '428671', '428672',
  '428673', '431361', '432328', '434107', '439954', '439956', '440533', '440647', '440795', '442463', '445564', '446393',
  '446404', '446672', '455036', '455708', '457865', '457997', '458456', '462220', '468540', '468541', '468542', '468543',
  '474491', '483010', '483011', '483012', '484783', '486094', '486095', '486096', '489317', '489318', '489319', '492464',
  '493428', '504300', '508160', '513213', '515079', '516138', '520058', '521076', '524130', '524514', '524940', '529415',
  '529741', '530060', '530906', '531095', '531196', '532013', '535825', '535989', '536023', '537767', '539931', '543085',
  '543357', '549760', '554180', '555610', '557606', '558563', '558848', '585265', '588845', '588846', '588847', '588848',
  '588849', '588850', '588851', '588982', '588983', '589005', '589206', '604906', '605141', '636120', '968201', '968202',
  '968203', '968204', '968205', '968206', '968207', '968208', '968209', '968210', '968211',
  '22337902', '22337986', '22402030', '40545400', '45488707', '49098000', '52166100', '53973776',
];

/**
 * Meeza (Egypt): 507803 and 507809-507811, 16 digits: bendrucker/creditcards-types types/meeza.js
 * (pattern /^5078(03|09|10|11)\d{10}$/). 507804-507808 are in no source found and are not Meeza here.
 *
 * RuPay (India). Wikipedia "Payment card number" (IIN table, as copied on 2024-07-19 into a public
 * cardData table) gives RuPay 60, 65, 81, 82, 508, 353, 356, with 65 co-branded Discover and
 * 353/356 co-branded JCB. NPCI ranges as the Indian gateway Juspay ships them
 * (juspay/card-validator src/validator.js): 508500-508999, 606985-607984, 608001-608500,
 * 652150-653149, 817200-819899, 819900-820199. Kept here, with the precedence explained in
 * docs/api-decisions.md "BIN":
 * - 508: all of it (Wikipedia); mada's 508160 is more specific and stays mada.
 * - 60: only the NPCI ranges. The rest of 60 is shared with Indonesia's GPN (Wikipedia: GPN 60-63),
 *   UkrCard (604001-604200), mada (604906, 605141), Discover (6011) and Hipercard (606282): calling
 *   it RuPay would give Indian country facts to Indonesian and Ukrainian cards.
 * - 65: only 652150-653149 (65 is Discover's; RuPay cards there are the Discover co-brand).
 * - 81 and 82: 817200-829999. UnionPay's 8 series is 81000000-81719999 (processor bulletin quoted in
 *   braintree/credit-card-type issue #95, the package's UnionPay 810, 8110-8171), so the two meet
 *   at 817200 without overlap.
 * - 353 and 356: JCB's own space, where Japanese JCB cards are too (3530 and 3566 test numbers):
 *   not by range; an issuer record naming RuPay there makes the card JCB + RuPay (evaluate.ts).
 *
 * Dankort: 5019 (bendrucker/creditcards-types types/dankort.js) and 4571 co-badged with Visa (Wikipedia
 * "Payment card number", as quoted in the card-request issue template of d-edge/Cardizer; Wikipedia's
 * table above: Dankort 5019, 4571).
 */
export const LOCAL_SCHEMES: readonly LocalScheme[] = [
  { name: 'mada', ranges: MADA_BINS.map((b) => [b, b] as const) },
  { name: 'RuPay', ranges: [['508', '508'], ['606985', '607984'], ['608001', '608500'], ['652150', '653149'], ['817200', '819999'], ['82', '82']] },
  { name: 'Dankort', ranges: [['5019', '5019'], ['4571', '4571']] },
  { name: 'Meeza', ranges: [['507803', '507803'], ['507809', '507811']] },
];

interface Entry { lo: string; hi: string; len: number; scheme: string }

const ENTRIES: Entry[] = LOCAL_SCHEMES.flatMap((s) => s.ranges.map(([lo, hi]) => ({ lo, hi, len: lo.length, scheme: s.name })))
  // Longer (more specific) prefixes first.
  .sort((a, b) => b.len - a.len);

/** The local scheme whose range holds the number's leading digits, or null. */
export function localScheme(leading: string): string | null {
  return localMatch(leading)?.scheme ?? null;
}

/** The local scheme and the length of its matching range (its specificity), or null. */
export function localMatch(leading: string): { scheme: string; len: number } | null {
  for (const e of ENTRIES) {
    if (leading.length < e.len) continue;
    const p = leading.slice(0, e.len);
    if (p >= e.lo && p <= e.hi) return { scheme: e.scheme, len: e.len };
  }
  return null;
}
