/** `formats` of the IBAN result: machine (compact, upper case), human (groups of four), obfuscated. */
export function ibanFormats(iban: string): { machine: string; human: string; obfuscated: string } {
  return { machine: iban, human: iban.replace(/(.{4})(?=.)/g, '$1 '), obfuscated: obfuscateIban(iban) };
}

/** Keeps country, check digits and last four: DE89**************3000 (the event log's mask too). */
export function obfuscateIban(iban: string): string {
  if (iban.length <= 8) return iban.slice(0, 4) + '*'.repeat(Math.max(0, iban.length - 4));
  return iban.slice(0, 4) + '*'.repeat(iban.length - 8) + iban.slice(-4);
}
