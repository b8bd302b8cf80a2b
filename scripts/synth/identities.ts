/** Names, email addresses, phone numbers and User-Agents for the generator. */
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import type { Random } from './prng.ts';

const FIRST = ['james', 'mary', 'john', 'linda', 'david', 'sarah', 'michael', 'emma', 'daniel', 'olivia', 'lucas', 'sophie', 'thomas', 'anna', 'pierre', 'julia', 'marco', 'laura', 'pedro', 'ana', 'rahul', 'priya', 'chidi', 'ngozi', 'jan', 'eva', 'carlos', 'lucia', 'max', 'lea'];
const LAST = ['smith', 'johnson', 'brown', 'miller', 'garcia', 'martin', 'muller', 'schmidt', 'dubois', 'rossi', 'silva', 'santos', 'sharma', 'patel', 'okafor', 'adeyemi', 'devries', 'jansen', 'lopez', 'fernandez', 'wilson', 'taylor', 'moreau', 'bianchi', 'costa', 'singh', 'bakker', 'weber', 'fischer', 'evans'];

/** Webmail domains by country (the big ones everywhere, plus each country's own). */
const WEBMAIL: Record<string, readonly string[]> = {
  US: ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'aol.com', 'comcast.net'],
  GB: ['gmail.com', 'hotmail.co.uk', 'yahoo.co.uk', 'outlook.com', 'btinternet.com', 'icloud.com'],
  DE: ['gmail.com', 'web.de', 'gmx.de', 't-online.de', 'outlook.de'],
  FR: ['gmail.com', 'orange.fr', 'free.fr', 'laposte.net', 'hotmail.fr'],
  BR: ['gmail.com', 'hotmail.com', 'uol.com.br', 'bol.com.br', 'yahoo.com.br'],
  IN: ['gmail.com', 'yahoo.co.in', 'rediffmail.com', 'outlook.com'],
  CA: ['gmail.com', 'hotmail.com', 'yahoo.ca', 'outlook.com'],
  ES: ['gmail.com', 'hotmail.es', 'yahoo.es', 'outlook.es'],
  IT: ['gmail.com', 'libero.it', 'virgilio.it', 'hotmail.it'],
  NL: ['gmail.com', 'hotmail.nl', 'ziggo.nl', 'kpnmail.nl', 'outlook.com'],
};
/** Real company domains (people pay with their work address too). */
const COMPANY = ['ibm.com', 'siemens.com', 'accenture.com', 'deloitte.com', 'bosch.com', 'unilever.com', 'sap.com', 'philips.com', 'nestle.com', 'infosys.com', 'bbc.co.uk', 'renault.com'];
/** Disposable-mail services (all on the public disposable lists Vigil bundles). */
export const DISPOSABLE = ['mailinator.com', 'guerrillamail.com', '10minutemail.com', 'yopmail.com', 'trashmail.com', 'sharklasers.com', 'temp-mail.org', 'getnada.com', 'dispostable.com'];

export function personName(rnd: Random): { first: string; last: string } {
  return { first: rnd.pick(FIRST), last: rnd.pick(LAST) };
}

/** A name-based address at a webmail domain of `country` (or, one time in ten, at a company). */
export function realEmail(rnd: Random, country: string, name: { first: string; last: string }): string {
  const domain = rnd.chance(0.1) ? rnd.pick(COMPANY) : rnd.pick(WEBMAIL[country] ?? WEBMAIL.US!);
  const local = rnd.pick([
    `${name.first}.${name.last}`, `${name.first}${name.last}`, `${name.first[0]}${name.last}`,
    `${name.first}.${name.last}${rnd.int(1, 99)}`, `${name.first}${rnd.int(1960, 2005)}`,
  ]);
  return `${local}@${domain}`;
}

/** What a fraudster types for each new account: random letters and digits, webmail or disposable. */
export function throwawayEmail(rnd: Random, disposableShare: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let local = '';
  for (let i = rnd.int(6, 11); i > 0; i--) local += rnd.chance(0.25) ? String(rnd.int(0, 9)) : letters[rnd.int(0, 25)];
  const domain = rnd.chance(disposableShare) ? rnd.pick(DISPOSABLE) : rnd.pick(['gmail.com', 'outlook.com', 'yahoo.com', 'hotmail.com']);
  return `${local}@${domain}`;
}

/**
 * A valid mobile number of `country` in E.164: libphonenumber's example number with its last digits
 * redrawn until the number is valid again.
 */
export function phoneOf(rnd: Random, country: string): string {
  const example = getExampleNumber(country as CountryCode, examples);
  if (!example) throw new Error(`no example phone number for ${country}`);
  const national = String(example.nationalNumber);
  for (let tries = 0; tries < 50; tries++) {
    const keep = Math.max(2, national.length - 5);
    const candidate = `+${example.countryCallingCode}${national.slice(0, keep)}${rnd.digits(national.length - keep)}`;
    if (parsePhoneNumberFromString(candidate)?.isValid()) return candidate;
  }
  return example.number;
}

const DESKTOP = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
];
const MOBILE = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.102 Mobile Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
];
/** Automation and emulators: what card-testing scripts and account farms run on. */
const HEADLESS = [
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  'python-requests/2.32.3',
];
const EMULATOR = [
  'Mozilla/5.0 (Linux; Android 11; sdk_gphone_x86) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 9; Android SDK built for x86) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36',
];

export function browserUa(rnd: Random): string {
  return rnd.chance(0.55) ? rnd.pick(MOBILE) : rnd.pick(DESKTOP);
}
export function headlessUa(rnd: Random): string {
  return rnd.pick(HEADLESS);
}
export function emulatorUa(rnd: Random): string {
  return rnd.pick(EMULATOR);
}
