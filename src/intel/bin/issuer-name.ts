/**
 * Issuer names in Title Case (docs/api-decisions.md "BIN"): datasets write most names in capitals
 * (`BANK OF AMERICA, N.A.`). Names already in mixed case are kept as written. In capitals:
 * a word without vowels (`HSBC`, `BNP`, `PNC`), a dotted abbreviation (`N.A.`, `S.A.`), a word with
 * digits and a known acronym stay upper case; short joining words are lower case except first;
 * a few brands keep their own spelling (`JPMorgan`, `McDonald`).
 */

const ACRONYMS: ReadonlySet<string> = new Set([
  'USA', 'US', 'UK', 'UAE', 'NA', 'SA', 'AG', 'AS', 'ASA', 'AB', 'BV', 'NV', 'PLC', 'LLC', 'FSB', 'SAL', 'SAE', 'SAS',
  'OJSC', 'CJSC', 'JSC', 'PJSC', 'PAO', 'OAO', 'ZAO', 'OOO', 'AO', 'KG', 'GMBH', 'EG', 'CIB', 'ICICI', 'HDFC', 'IDBI', 'UBS', 'ING', 'ABN',
  'AMRO', 'BBVA', 'BPCE', 'CIC', 'UOB', 'OCBC', 'DBS', 'ANZ', 'RBC', 'TD', 'BMO', 'CIBC', 'KEB', 'NH', 'BCA', 'BRI', 'BNI', 'QNB', 'NBD',
  'NBK', 'ADCB', 'FAB', 'SNB', 'SABB', 'ANB', 'BNY', 'PKO', 'BPH', 'OTP', 'VTB', 'MTS', 'ATM', 'FCU', 'CU', 'NB', 'BHD', 'II', 'III', 'IV',
]);
/** Words without vowels that are abbreviations, not acronyms. */
const NOT_ACRONYMS: ReadonlySet<string> = new Set(['LTD', 'ST', 'MR', 'DR', 'JR', 'MT', 'FT', 'BLVD', 'PTY', 'PVT', 'SPK', 'ZRT']);
const LOWER: ReadonlySet<string> = new Set(['of', 'and', 'the', 'de', 'del', 'la', 'le', 'des', 'du', 'di', 'da', 'do', 'dos', 'das', 'e', 'y', 'et', 'und', 'van', 'von', 'for', 'en', 'al']);
const SPECIAL: ReadonlyMap<string, string> = new Map([
  ['JPMORGAN', 'JPMorgan'], ['MCDONALD', 'McDonald'], ['IBANK', 'iBank'], ['PAYPAL', 'PayPal'], ['MASTERCARD', 'Mastercard'],
  ['BANKAMERICARD', 'BankAmericard'], ['NETSPEND', 'NetSpend'], ['USAA', 'USAA'],
]);

function word(w: string, first: boolean): string {
  const special = SPECIAL.get(w);
  if (special) return special;
  const letters = w.replace(/[^A-Za-z]/g, '');
  if (letters === '') return w;
  if (ACRONYMS.has(letters) || /\d/.test(w) || /^([A-Z]\.)+[A-Z]?\.?$/.test(w)) return w;
  if (letters.length >= 2 && !/[AEIOUY]/.test(letters) && !NOT_ACRONYMS.has(letters)) return w;
  const lower = w.toLowerCase();
  if (!first && LOWER.has(lower)) return lower;
  // Capitalise after the start and after an apostrophe or inner hyphen/slash/parenthesis: O'Brien, Crédit-Agricole.
  return lower.replace(/(^|['’\-/(&])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase());
}

/** `BANK OF AMERICA, N.A.` -> `Bank of America, N.A.`; mixed-case names are returned as given. */
export function issuerTitleCase(name: string): string {
  const s = name.trim().replace(/\s+/g, ' ');
  if (s === '') return s;
  const hasUpper = /\p{Lu}/u.test(s);
  const hasLower = /\p{Ll}/u.test(s);
  if (hasUpper && hasLower) return s;
  // A name in a script without case (Chinese, Arabic...) is not one written in capitals: its Latin
  // part is a code or acronym (`中国工商银行 (ICBC)`), kept as written.
  if (/\p{Lo}/u.test(s)) return s;
  const upper = s.toUpperCase();
  return upper.split(' ').map((w, i) => word(w, i === 0)).join(' ');
}
