/**
 * The `device` block of the IP answers: what the User-Agent says about the client's device, OS and
 * browser, plus crawler/automation detection.
 *
 * Parsing is ua-parser-js 1.x (MIT). Version 2 is AGPL-3.0: do not upgrade across that line. The
 * package ships no types and is CommonJS, so it is loaded through createRequire and its result is
 * read through the narrow UaResult shape below, checked field by field (nothing of `any` escapes).
 *
 * Values, decided here and documented for the API:
 * - `type`: desktop | mobile | tablet | smarttv | console | wearable | embedded | bot | unknown.
 *   ua-parser names the device class only for non-desktops; a known desktop OS (Windows, macOS,
 *   Linux, ChromeOS, BSD) without one is `desktop`. A crawler or automation tool (isBotUserAgent)
 *   is `bot` whatever it imitates: Googlebot's smartphone crawler says "Android ... Mobile".
 * - `isMobile`: true for mobile, tablet and wearable (a handheld, battery device); false for bots.
 * - `OS.type`: desktop | mobile | smarttv | console | embedded | other | unknown: the class of the
 *   OS family (Android and iOS are mobile), except that a TV, console or embedded device keeps its
 *   class (Android TV is not a phone).
 * - `OS.family`: Windows | MacOS | Linux | ChromeOS | BSD | iOS | Android | Windows Phone |
 *   BlackBerry | KaiOS | HarmonyOS | Tizen | webOS | PlayStation | Xbox | Nintendo, else the name.
 * - `OS.title`: name and version as ua-parser gives them ("Windows 10", "iOS 17.1.2",
 *   "Mac OS 10.15.7"). Windows 11 sends "Windows NT 10.0" and so reads as Windows 10: the UA cannot
 *   tell them apart (only the UA Client Hints can).
 * - `OS['64bits_mode']`: 1 only when the UA says so (CPU amd64, arm64, ia64, ...; or the Win64,
 *   x64, WOW64, x86_64, aarch64 tokens); 0 otherwise, including when it does not say (iPhones and
 *   Apple-silicon Macs, which report "Intel Mac OS X", are 64-bit but give 0).
 * - `browser.version`: major.minor as a number ("120.0.6099.109" -> 120, "17.1.2" -> 17.1); 0 when
 *   unknown. `versionMajor` is the major as text, 'unknown' when unknown.
 * Unknown strings are 'unknown'; a missing, empty or unparsable UA gives the all-unknown block.
 */
import { createRequire } from 'node:module';
import { TtlCache } from '../../net/ttl-cache.ts';

export interface DeviceBlock {
  isMobile: boolean;
  type: DeviceType;
  OS: {
    type: string;
    name: string;
    family: string;
    version: string;
    title: string;
    '64bits_mode': 0 | 1;
  };
  browser: {
    name: string;
    version: number;
    versionMajor: string;
    title: string;
  };
}

export type DeviceType = 'desktop' | 'mobile' | 'tablet' | 'smarttv' | 'console' | 'wearable' | 'embedded' | 'bot' | 'unknown';

/**
 * Longer UAs are cut before parsing: real ones stay under 400 characters, and ua-parser's regexes
 * (some with nested quantifiers) should never see attacker-sized input. ua-parser 1.0.41 trims to
 * 500 on its own as well; this makes the bound ours, not the library's.
 */
export const MAX_UA_LENGTH = 512;

const UNKNOWN = 'unknown';

interface UaResult {
  browser: { name?: string; version?: string; major?: string };
  os: { name?: string; version?: string };
  device: { type?: string; vendor?: string; model?: string };
  cpu: { architecture?: string };
}

type UaParserCtor = new (ua: string) => { getResult(): unknown };

function loadParser(): UaParserCtor {
  const mod: unknown = createRequire(import.meta.url)('ua-parser-js');
  if (typeof mod !== 'function') throw new Error('ua-parser-js: unexpected module shape (expected the 1.x constructor)');
  return mod as UaParserCtor;
}

const UAParser = loadParser();

function str(obj: unknown, key: string): string | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function part(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>)[key] : undefined;
}

/**
 * Parsed User-Agents, read-only. Real traffic repeats a few thousand strings and ua-parser-js runs
 * dozens of regular expressions per parse (the largest part of a payment's device checks), so the
 * last 5,000 distinct strings are kept in memory (never stored).
 */
const PARSED = new TtlCache<Readonly<UaResult>>(5000);

function parseUa(ua: string): Readonly<UaResult> {
  const hit = PARSED.get(ua);
  if (hit) return hit.value;
  const parsed = parseUaAfresh(ua);
  PARSED.set(ua, parsed, Number.POSITIVE_INFINITY);
  return parsed;
}

function parseUaAfresh(ua: string): UaResult {
  const r = new UAParser(ua).getResult();
  const browser = part(r, 'browser');
  const os = part(r, 'os');
  const device = part(r, 'device');
  const cpu = part(r, 'cpu');
  return {
    browser: { name: str(browser, 'name'), version: str(browser, 'version'), major: str(browser, 'major') },
    os: { name: str(os, 'name'), version: str(os, 'version') },
    device: { type: str(device, 'type'), vendor: str(device, 'vendor'), model: str(device, 'model') },
    cpu: { architecture: str(cpu, 'architecture') },
  };
}

/** ua-parser 1.x device types we pass through; anything else (a future one) falls back. */
const DEVICE_TYPES = new Set<DeviceType>(['mobile', 'tablet', 'smarttv', 'console', 'wearable', 'embedded']);

type OsClass = 'desktop' | 'mobile' | 'smarttv' | 'console' | 'embedded' | 'other';

/** OS name (as ua-parser 1.x spells it) -> family and class. First match wins. */
const OS_FAMILIES: ReadonlyArray<[RegExp, string, OsClass]> = [
  [/^windows (phone|mobile)/i, 'Windows Phone', 'mobile'],
  [/^windows/i, 'Windows', 'desktop'],
  [/^(mac ?os|macos|os x)/i, 'MacOS', 'desktop'],
  [/^ios$/i, 'iOS', 'mobile'],
  [/^android/i, 'Android', 'mobile'],
  [/^harmonyos/i, 'HarmonyOS', 'mobile'],
  [/^(blackberry|rim tablet os)/i, 'BlackBerry', 'mobile'],
  [/^kaios/i, 'KaiOS', 'mobile'],
  [/^(symbian|series40|bada|sailfish|firefox os|meego|maemo|palm)/i, 'Mobile', 'mobile'],
  [/^(chrome|chromium) ?os/i, 'ChromeOS', 'desktop'],
  [/bsd$|^dragonfly/i, 'BSD', 'desktop'],
  [/^tizen/i, 'Tizen', 'smarttv'],
  [/^(webos|netos|netcast)/i, 'webOS', 'smarttv'],
  [/^playstation/i, 'PlayStation', 'console'],
  [/^xbox/i, 'Xbox', 'console'],
  [/^nintendo/i, 'Nintendo', 'console'],
  // ua-parser names many distributions (Ubuntu, Fedora, Debian, Arch, Mint, ...) by themselves.
  [/^(linux|ubuntu|kubuntu|xubuntu|lubuntu|debian|fedora|red ?hat|centos|suse|opensuse|gentoo|arch|mint|mandriva|mageia|slackware|manjaro|elementary|deepin|zenwalk|pclinuxos|linpus|knoppix|raspbian|sabayon|vectorlinux|gnu)/i, 'Linux', 'desktop'],
  [/^(solaris|aix|hp-ux|irix|unix|haiku|beos|os\/2|amigaos|morphos|riscos|plan9|minix|qnx|fuchsia|serenityos)/i, 'Unix', 'other'],
];

function osFamily(name: string | undefined): [string, OsClass] | null {
  if (name === undefined) return null;
  for (const [re, family, cls] of OS_FAMILIES) if (re.test(name)) return [family, cls];
  return [name, 'other'];
}

/** ua-parser 1.x CPU architectures of 64-bit machines. */
const ARCH_64 = new Set(['amd64', 'arm64', 'ia64', 'irix64', 'mips64', 'ppc64', 'sparc64', 'riscv64']);
/** UA tokens that state a 64-bit OS or process, for UAs whose CPU ua-parser does not name. */
const TOKEN_64 = /\b(win64|x64|wow64|x86_64|x86-64|amd64|aarch64|arm64|ppc64|sparc64)\b/i;

/** "120.0.6099.109" -> 120, "17.1.2" -> 17.1, garbage -> 0. */
export function versionNumber(version: string | undefined): number {
  const m = version === undefined ? null : /^(\d{1,9})(?:\.(\d{1,9}))?/.exec(version);
  if (!m) return 0;
  const n = Number(`${m[1]}.${m[2] ?? '0'}`);
  return Number.isFinite(n) ? n : 0;
}

function majorOf(major: string | undefined, version: string | undefined): string {
  if (major !== undefined && /^\d+$/.test(major)) return major;
  const m = version === undefined ? null : /^(\d+)/.exec(version);
  return m?.[1] ?? UNKNOWN;
}

/** A fresh all-unknown block (callers may mutate what they get). */
export function unknownDevice(): DeviceBlock {
  return {
    isMobile: false,
    type: 'unknown',
    OS: { type: UNKNOWN, name: UNKNOWN, family: UNKNOWN, version: UNKNOWN, title: UNKNOWN, '64bits_mode': 0 },
    browser: { name: UNKNOWN, version: 0, versionMajor: UNKNOWN, title: UNKNOWN },
  };
}

/*
 * Crawlers, scanners, HTTP libraries and browser automation, matched in order (specific first).
 * Sources: the operators' own crawler documentation (Google, Bing, Apple, Yandex, Baidu, DuckDuckGo,
 * OpenAI, Anthropic, Common Crawl, ...) and the default User-Agents of the listed tools and
 * libraries. Each entry is a token checked at word boundaries, so "curl" does not match "curly".
 * The last entries are generic: a token ending in bot/crawler/spider followed by a version or
 * punctuation, or a contact URL "+http" in a compatible-comment, which browsers never send.
 */
const BOT_PATTERNS: ReadonlyArray<[name: string, token: string]> = [
  // Search engines and their special-purpose crawlers.
  ['Googlebot', 'Googlebot(?:-Image|-News|-Video)?'],
  ['Google-InspectionTool', 'Google-InspectionTool'],
  ['GoogleOther', 'GoogleOther(?:-Image|-Video)?'],
  ['Storebot-Google', 'Storebot-Google'],
  ['AdsBot-Google', 'AdsBot-Google(?:-Mobile)?'],
  ['Mediapartners-Google', 'Mediapartners-Google'],
  ['APIs-Google', 'APIs-Google'],
  ['FeedFetcher-Google', 'FeedFetcher-Google'],
  ['Google-Read-Aloud', 'Google-Read-Aloud'],
  ['Bingbot', 'bingbot'],
  ['BingPreview', 'BingPreview'],
  ['msnbot', 'msnbot(?:-media)?'],
  ['AdIdxBot', 'adidxbot'],
  ['Yahoo Slurp', 'Slurp'],
  ['DuckDuckBot', 'DuckDuckBot|DuckAssistBot'],
  ['Baiduspider', 'Baiduspider(?:-image|-video|-news)?'],
  ['YandexBot', 'Yandex(?:Bot|Images|Video|Mobile(?:Bot|Screenshot)|Metrika|Direct|Accessibility|Blogs|Favicons|Market|News|Webmaster|RenderResources|ScreenshotBot|Media|Calendar|SearchShop|Vertis|Pagechecker)'],
  ['Applebot', 'Applebot(?:-Extended)?'],
  ['Sogou', 'Sogou (?:web|inst|Pic|Orion|News) spider|Sogou'],
  ['SeznamBot', 'SeznamBot'],
  ['Exabot', 'Exabot'],
  ['Qwantify', 'Qwantify|Qwantbot'],
  ['PetalBot', 'PetalBot'],
  ['Yeti', 'Yeti'],
  ['Bytespider', 'Bytespider'],
  ['MojeekBot', 'MojeekBot'],
  // Link previews and social networks.
  ['facebookexternalhit', 'facebookexternalhit|facebookcatalog|meta-externalagent|meta-externalfetcher'],
  ['Facebot', 'Facebot'],
  ['Twitterbot', 'Twitterbot'],
  ['LinkedInBot', 'LinkedInBot'],
  ['Slackbot', 'Slackbot(?:-LinkExpanding)?|Slack-ImgProxy'],
  ['Discordbot', 'Discordbot'],
  ['TelegramBot', 'TelegramBot'],
  ['WhatsApp', 'WhatsApp'],
  ['Pinterestbot', 'Pinterestbot'],
  ['redditbot', 'redditbot'],
  ['Embedly', 'Embedly'],
  ['SkypeUriPreview', 'SkypeUriPreview'],
  // SEO tools, archives, AI crawlers.
  ['AhrefsBot', 'AhrefsBot|AhrefsSiteAudit'],
  ['SemrushBot', 'SemrushBot'],
  ['MJ12bot', 'MJ12bot'],
  ['DotBot', 'DotBot'],
  ['rogerbot', 'rogerbot'],
  ['BLEXBot', 'BLEXBot'],
  ['DataForSeoBot', 'DataForSeoBot'],
  ['Screaming Frog', 'Screaming Frog SEO Spider'],
  ['ia_archiver', 'ia_archiver|archive\\.org_bot'],
  ['GPTBot', 'GPTBot|ChatGPT-User|OAI-SearchBot'],
  ['ClaudeBot', 'ClaudeBot|Claude-Web|Claude-User|Claude-SearchBot|anthropic-ai'],
  ['PerplexityBot', 'PerplexityBot|Perplexity-User'],
  ['CCBot', 'CCBot'],
  ['Amazonbot', 'Amazonbot'],
  ['Diffbot', 'Diffbot'],
  ['cohere-ai', 'cohere-ai'],
  // Headless browsers and automation.
  ['HeadlessChrome', 'HeadlessChrome'],
  ['PhantomJS', 'PhantomJS'],
  ['SlimerJS', 'SlimerJS'],
  ['Selenium', 'Selenium|WebDriver'],
  ['Puppeteer', 'Puppeteer'],
  ['Playwright', 'Playwright'],
  ['HtmlUnit', 'HtmlUnit'],
  ['Lighthouse', 'Chrome-Lighthouse'],
  ['WebPageTest', 'PTST'],
  // HTTP clients and libraries (their default User-Agents).
  ['curl', 'curl|libcurl|PycURL'],
  ['Wget', 'Wget'],
  ['python-requests', 'python-requests'],
  ['Python-urllib', 'Python-urllib'],
  ['aiohttp', 'aiohttp'],
  ['httpx', 'python-httpx|httpx'],
  ['Scrapy', 'Scrapy'],
  ['Go-http-client', 'Go-http-client'],
  ['Java', 'Java(?=/)|Apache-HttpClient|Jakarta Commons-HttpClient'],
  ['okhttp', 'okhttp'],
  ['libwww-perl', 'libwww-perl|LWP::Simple|WWW-Mechanize'],
  ['node-fetch', 'node-fetch|undici|axios|got(?= \\(https://github\\.com/sindresorhus/got)'],
  ['Ruby', 'Ruby(?=[ /]|$)|Faraday'],
  ['GuzzleHttp', 'GuzzleHttp'],
  ['PostmanRuntime', 'PostmanRuntime'],
  ['insomnia', 'insomnia'],
  ['HTTPie', 'HTTPie'],
  ['Dart', 'Dart(?=/)'],
  ['Deno', 'Deno(?=/)'],
  ['reqwest', 'reqwest'],
  ['hackney', 'hackney'],
  // Scanners.
  ['zgrab', 'zgrab'],
  ['masscan', 'masscan'],
  ['Nmap', 'Nmap Scripting Engine|Nmap'],
  ['Nuclei', 'Nuclei'],
  ['sqlmap', 'sqlmap'],
  ['Nikto', 'Nikto'],
  ['WPScan', 'WPScan'],
];

/** Brand names that merely end in "bot" (CUBOT phones) and must not trip the generic rule. */
const NOT_BOTS = /\bcubot\b/gi;

const BOT_RES: ReadonlyArray<[string, RegExp]> = BOT_PATTERNS.map(([name, token]) => [
  name,
  // Boundaries by hand rather than \b: a token must not start inside a word or run on into
  // letters ("curl" is not "curly", "Sogou" is not "SogouMobileBrowser"), yet may be followed by
  // digits or punctuation. The version, when present, follows "/" or a space.
  new RegExp(`(?<![A-Za-z0-9])(?:${token})(?![A-Za-z])(?:[/ ]v?(\\d+(?:\\.\\d+)*))?`, 'i'),
]);

const GENERIC_BOT = /(?<![A-Za-z0-9])([A-Za-z][\w.-]*?(?:bot|crawler|spider|scraper|fetcher))(?![A-Za-z])(?:[/ ]v?(\d+(?:\.\d+)*))?/i;
const CONTACT_URL = /\(compatible;[^)]*\+https?:\/\//i;

function clip(ua: string | undefined): string {
  if (typeof ua !== 'string') return '';
  return (ua.length > MAX_UA_LENGTH ? ua.slice(0, MAX_UA_LENGTH) : ua).trim();
}

/** The crawler or tool a UA names, with its version when it gives one; null for a browser. */
export function detectBot(userAgent: string | undefined): { name: string; version: string | null } | null {
  const ua = clip(userAgent);
  if (ua === '') return null;
  for (const [name, re] of BOT_RES) {
    const m = re.exec(ua);
    if (m) return { name, version: m[1] ?? null };
  }
  const scrubbed = ua.replace(NOT_BOTS, '');
  const g = GENERIC_BOT.exec(scrubbed);
  if (g) return { name: g[1]!, version: g[2] ?? null };
  if (CONTACT_URL.test(ua)) return { name: 'bot', version: null };
  return null;
}

/** True for crawlers, scanners, HTTP libraries and headless/automated browsers (see BOT_PATTERNS). */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  return detectBot(userAgent) !== null;
}

/** Parses a User-Agent into the device block; never throws (see the file comment for values). */
export function parseDevice(userAgent: string | undefined): DeviceBlock {
  const ua = clip(userAgent);
  if (ua === '') return unknownDevice();
  let r: Readonly<UaResult>;
  try {
    r = parseUa(ua);
  } catch {
    // ua-parser does not throw on strings; this guards a future version's surprise, not a known case.
    return unknownDevice();
  }
  const bot = detectBot(ua);
  const block = unknownDevice();

  const osName = r.os.name;
  const fam = osFamily(osName);
  const deviceType = r.device.type as DeviceType | undefined;
  const knownDevice = deviceType !== undefined && DEVICE_TYPES.has(deviceType) ? deviceType : undefined;

  if (osName !== undefined && fam !== null) {
    const [family, cls] = fam;
    const version = r.os.version ?? UNKNOWN;
    const osType: string = knownDevice === 'smarttv' || knownDevice === 'console' || knownDevice === 'embedded' ? knownDevice : cls;
    block.OS = {
      type: osType,
      name: osName,
      family,
      version,
      title: version === UNKNOWN ? osName : `${osName} ${version}`,
      '64bits_mode': 0,
    };
  }
  const arch = r.cpu.architecture?.toLowerCase();
  block.OS['64bits_mode'] = (arch !== undefined && ARCH_64.has(arch)) || TOKEN_64.test(ua) ? 1 : 0;

  if (r.browser.name !== undefined) {
    const major = majorOf(r.browser.major, r.browser.version);
    block.browser = {
      name: r.browser.name,
      version: versionNumber(r.browser.version),
      versionMajor: major,
      title: major === UNKNOWN ? r.browser.name : `${r.browser.name} ${major}`,
    };
  } else if (bot) {
    // curl, Googlebot and friends are not browsers to ua-parser; name the client they are.
    const major = majorOf(undefined, bot.version ?? undefined);
    block.browser = {
      name: bot.name,
      version: versionNumber(bot.version ?? undefined),
      versionMajor: major,
      title: major === UNKNOWN ? bot.name : `${bot.name} ${major}`,
    };
  }

  let type: DeviceType;
  if (bot) type = 'bot';
  else if (knownDevice !== undefined) type = knownDevice;
  else if (block.OS.type === 'desktop') type = 'desktop';
  else if (block.OS.type === 'mobile') type = 'mobile';
  else type = 'unknown';
  block.type = type;
  block.isMobile = type === 'mobile' || type === 'tablet' || type === 'wearable';
  return block;
}
