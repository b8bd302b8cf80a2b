/**
 * Card numbers for the generator: Luhn-valid 16-digit numbers on real BINs whose issuing country is
 * the one intended. Each BIN below is a single-prefix row of binlist's public data (the `bin-binlist`
 * dataset that `vigil data import` reads; bank and scheme as listed there), so with that dataset
 * imported the BIN engine gives the card the country named here; without it the country is unknown.
 */
import type { Random } from './prng.ts';

export const BINS: Readonly<Record<string, readonly string[]>> = {
  US: ['400344', '400022', '510371'], // Capital One Visa credit, Navy Federal CU Visa debit, WesBanco Mastercard debit
  GB: ['446238', '412983', '518652'], // Halifax Visa debit, MBNA Visa credit, Tesco Mastercard credit
  DE: ['414912', '415932', '519344'], // Frankfurter Sparkasse Visa debit, Cortal Consors Visa debit, Commerzbank Mastercard
  FR: ['453301', '455679', '513101'], // Credit Agricole Visa, Credit du Nord Visa debit, Credit Agricole Mastercard
  BR: ['400163', '510147', '512363'], // Banco do Brasil Visa debit, Bradesco Mastercard, Itau Mastercard
  IN: ['405533', '406228', '524178'], // ICICI Visa credit, Axis Visa debit, Axis Mastercard credit
  CA: ['450003', '450065', '516075'], // CIBC Visa credit (two), Capital One Canada Mastercard
  ES: ['409015', '410626', '540205'], // BBVA Visa, Banco Sabadell Visa, Banco Sabadell Mastercard debit
  IT: ['402360', '403003', '512739'], // Poste Italiane Visa debit, Fineco Visa, Banca Popolare di Milano Mastercard
  NL: ['456353', '472906', '520953'], // ABN AMRO Visa credit and debit, Rabobank Mastercard
  NG: ['418742', '467875', '539983'], // Access Bank Visa debit, FCMB Visa debit, GTBank Mastercard debit
  RU: ['427938', '426803'], // Sberbank Visa debit, Promsvyazbank Visa credit
  RO: ['414049', '419995'], // Banca Transilvania Visa debit, Volksbank Romania Visa debit
  UA: ['414949'], // PrivatBank Visa debit
  ID: ['410505', '421168'], // Bank Negara Indonesia Visa credit, Bukopin Visa credit
};

/** The Luhn check digit that completes `partial` (the number without its last digit). */
export function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    // Doubling starts at the rightmost digit of the partial number (it sits left of the check digit).
    let d = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

export function luhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/** A Luhn-valid 16-digit number on `bin`. */
export function cardOnBin(rnd: Random, bin: string): string {
  const partial = bin + rnd.digits(15 - bin.length);
  return partial + luhnCheckDigit(partial);
}

/** A card issued in `country` (one of BINS' keys). */
export function cardOf(rnd: Random, country: string): string {
  const bins = BINS[country];
  if (!bins) throw new Error(`no BIN for ${country}`);
  return cardOnBin(rnd, rnd.pick(bins));
}
