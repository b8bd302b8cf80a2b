/**
 * Number ranges regulators reserve for films, TV, radio, books and games: no subscriber ever holds
 * them, so a sign-up giving one is made up (docs/api-decisions.md "Phone", "Fictional ranges").
 * Matched on the national significant number (the digits after the calling code), one anchored
 * pattern per calling code: a map lookup and one regex test per request, nothing allocated.
 */

export interface FictionalRange {
  /** The regulator that reserves the range, named in the reason. */
  readonly regulator: string;
  /** Where the regulator publishes it. */
  readonly source: string;
  /** National significant numbers of the range, the whole number matched. */
  readonly pattern: RegExp;
  /** The answer's reason, built once. */
  readonly reason: string;
}

const range = (regulator: string, source: string, pattern: RegExp): FictionalRange =>
  ({ regulator, source, pattern, reason: `Reserved for fiction by ${regulator} (films, TV, books): no subscriber holds this number.` });

/** Ranges by calling code; every region sharing a calling code shares its plan's reserved ranges. */
const RANGES: ReadonlyMap<string, FictionalRange> = new Map([
  // NANPA: 555-0100 to 555-0199 in every area code are reserved for fictional use (the rest of
  // 555 is assignable). https://nationalnanpa.com/number_resource_info/555_numbers.html
  ['1', range('NANPA', 'https://nationalnanpa.com/number_resource_info/555_numbers.html', /^[2-9]\d\d55501\d\d$/)],
  // Ofcom "Telephone numbers for TV and radio drama": 1,000 numbers per range.
  // https://www.ofcom.org.uk/phones-and-broadband/phone-numbers/numbers-for-drama
  // 0113-0118, 0121, 0131, 0141, 0151, 0161 496 0xxx; 0191 498 0xxx; 020 7946 0xxx; 028 9018 0xxx;
  // 029 2018 0xxx; 01632 960xxx (no area); 07700 900xxx (mobile); 08081 570xxx (freephone);
  // 0909 879 0xxx (premium rate); 03069 990xxx (UK-wide).
  ['44', range(
    'Ofcom',
    'https://www.ofcom.org.uk/phones-and-broadband/phone-numbers/numbers-for-drama',
    /^(?:1(?:1[3-8]|[2-6]1)4960|1914980|2079460|2890180|2920180|1632960|7700900|8081570|9098790|3069990)\d{3}$/,
  )],
  // ACMA "Phone numbers for use in TV shows, films and creative works": 0[2378] 5550 xxxx and
  // 0[2378] 7010 xxxx (geographic), 30 mobile numbers 0491 57x xxx, 1800 160 401, 1800 975 707-711
  // and 1300 975 707-711. https://www.acma.gov.au/phone-numbers-use-tv-shows-films-and-creative-works
  ['61', range(
    'ACMA',
    'https://www.acma.gov.au/phone-numbers-use-tv-shows-films-and-creative-works',
    /^(?:[2378](?:5550|7010)\d{4}|4915(?:70(?:006|1(?:10|5[6-9])|313|737)|71(?:266|491|804)|72(?:549|665|983)|73(?:087|770)|74(?:118|632)|75(?:254|789)|76(?:398|801)|77(?:426|644)|78(?:148|888|957)|79(?:212|455|760))|1800160401|1[38]00975(?:70[7-9]|71[01]))$/,
  )],
]);

/** The reserved range holding the number, or null (a real range). */
export function fictionalRange(callingCode: string, nationalNumber: string): FictionalRange | null {
  const r = RANGES.get(callingCode);
  return r !== undefined && r.pattern.test(nationalNumber) ? r : null;
}

/** Every calling code with reserved ranges (docs and tests). */
export const FICTIONAL_CALLING_CODES: readonly string[] = [...RANGES.keys()];
