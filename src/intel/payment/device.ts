/**
 * User-Agent checks of the payment rules PF10013 (device might not be real) and PF10014 (device
 * registered as high-risk), documented in docs/payment.md "Device checks".
 *
 * Parsing reuses the IP engine's ua-parser-js 1.x wrapper and crawler/tool detection
 * (src/intel/ip/device.ts); the checks below add what a payment needs on top:
 *
 * PF10013, in order (the first that matches is the reason):
 * 1. empty;
 * 2. a headless browser or browser-automation framework (AUTOMATION below);
 * 3. an HTTP library or command-line client (HTTP_CLIENTS below), then any crawler, scanner or tool
 *    the IP engine knows (detectBot): nobody pays from Googlebot;
 * 4. very short (under MIN_UA_LENGTH characters): every browser sends far more;
 * 5. impossible combinations (IMPOSSIBLE below): Safari's engine on Windows or Android, an iPhone
 *    with Windows NT or Android, Internet Explorer on a phone OS, a mobile OS with desktop-only
 *    tokens, a Windows NT version that never existed;
 * 6. absurd versions (a browser major above MAX_BROWSER_MAJOR, an iOS/Android/Safari version above
 *    MAX_OS_MAJOR, a zero major).
 *
 * PF10014: the UA names an Android emulator or virtual device (HIGH_RISK_DEVICES below), the tools
 * that run apps and browsers at scale for account farming and payment testing.
 */
import { detectBot, MAX_UA_LENGTH, parseDevice, type DeviceBlock } from '../ip/device.ts';

/** Shortest UA taken for a browser's; real ones run 60 to 300 characters. */
export const MIN_UA_LENGTH = 20;
/** Highest credible major version of Chrome, Firefox, Edge and their iOS shells (Chrome was 140 in 2025, ~13 majors a year). */
export const MAX_BROWSER_MAJOR = 400;
/** Highest credible major version of iOS, Android and Safari (all below 30 in 2025). */
export const MAX_OS_MAJOR = 99;

export interface DeviceCheck {
  /** Why the device might not be real (PF10013), or null. */
  notReal: string | null;
  /** Which high-risk device signature matched (PF10014), or null. */
  highRisk: string | null;
}

/** Headless browsers and automation frameworks: [name, token]. Matched at word boundaries. */
const AUTOMATION: ReadonlyArray<[string, RegExp]> = [
  ['HeadlessChrome', /HeadlessChrome/i],
  ['PhantomJS', /\bPhantomJS\b/i],
  ['SlimerJS', /\bSlimerJS\b/i],
  ['CasperJS', /\bCasperJS\b/i],
  ['Nightmare', /\bNightmare\b/i],
  ['Zombie.js', /\bZombie\.js\b/i],
  ['jsdom', /\bjsdom\b/i],
  ['HtmlUnit', /\bHtmlUnit\b/i],
  ['Selenium', /\bSelenium\b|\bWebDriver\b/i],
  ['Puppeteer', /\bPuppeteer\b/i],
  ['Playwright', /\bPlaywright\b/i],
  ['Cypress', /\bCypress\b/i],
];

/** HTTP libraries and command-line clients, by their default User-Agents. */
const HTTP_CLIENTS: ReadonlyArray<[string, RegExp]> = [
  ['curl', /(?<![A-Za-z])(?:curl|libcurl|PycURL)(?![A-Za-z])/i],
  ['Wget', /\bWget\b/i],
  ['python-requests', /\bpython-requests\b/i],
  ['Python-urllib', /\bPython-urllib\b/i],
  ['aiohttp', /\baiohttp\b/i],
  ['httpx', /\bpython-httpx\b/i],
  ['Go-http-client', /\bGo-http-client\b/i],
  ['okhttp', /\bokhttp\b/i],
  ['Java', /(?<![A-Za-z])Java\/\d|\bApache-HttpClient\b/i],
  ['node-fetch', /\bnode-fetch\b/i],
  ['axios', /\baxios\b/i],
  ['undici', /\bundici\b/i],
  ['PostmanRuntime', /\bPostmanRuntime\b/i],
  ['libwww-perl', /\blibwww-perl\b/i],
  ['GuzzleHttp', /\bGuzzleHttp\b/i],
];

// Token helpers for the impossible-combination checks.
const T = {
  windowsNt: /\bWindows NT\b/i,
  windowsPhone: /\bWindows Phone\b|\bWindows Mobile\b|\bIEMobile\b/i,
  android: /\bAndroid\b/i,
  iosDevice: /\b(?:iPhone|iPad|iPod)\b/,
  desktopOnly: /\bWindows NT\b|\bWin64\b|\bWOW64\b|\bMacintosh\b|\bCrOS\b|\bX11\b/i,
  // iPadOS in desktop mode says "Macintosh": not a contradiction for an iOS device token.
  desktopOnlyIos: /\bWindows NT\b|\bWin64\b|\bWOW64\b|\bCrOS\b|\bX11\b/i,
  ie: /\bMSIE \d|\bTrident\/\d/i,
  // Apple's Safari engine: AppleWebKit 600 and up with Safari's Version token and no Chromium token.
  safariEngine: /AppleWebKit\/6\d\d/i,
  safariVersion: /\bVersion\/\d/i,
  chromium: /\b(?:Chrome|Chromium|CriOS|HeadlessChrome)\//i,
};

/** Windows NT versions that shipped (4.0 NT 4, 5.0 2000, 5.1 XP, 5.2 XP x64/2003, 6.0 Vista, 6.1 7, 6.2 8, 6.3 8.1, 10.0 10 and 11). */
const WINDOWS_NT = new Set(['4.0', '5.0', '5.1', '5.2', '6.0', '6.1', '6.2', '6.3', '10.0']);

const SAFARI_NAMES = new Set(['Safari', 'Mobile Safari']);

/**
 * Impossible combinations: [reason, test]. The raw-token tests catch forgeries ua-parser reads
 * leniently; the parsed ones (`dev`, ua-parser-js through parseDevice) catch what ua-parser itself
 * names: Safari (5.1.7 was the last for Windows, on WebKit 534) and Internet Explorer.
 */
const IMPOSSIBLE: ReadonlyArray<[string, (ua: string, dev: DeviceBlock) => boolean]> = [
  ['Safari engine on Windows', (ua, dev) => !T.windowsPhone.test(ua) && ((T.safariEngine.test(ua) && T.safariVersion.test(ua) && !T.chromium.test(ua) && T.windowsNt.test(ua))
    || (SAFARI_NAMES.has(dev.browser.name) && dev.OS.family === 'Windows' && dev.browser.version > 5.1))],
  ['Safari engine on Android', (ua, dev) => !T.windowsPhone.test(ua) && ((T.safariEngine.test(ua) && T.safariVersion.test(ua) && !T.chromium.test(ua) && T.android.test(ua))
    || (SAFARI_NAMES.has(dev.browser.name) && dev.OS.family === 'Android'))],
  ['iPhone or iPad with Windows NT', (ua) => T.iosDevice.test(ua) && T.windowsNt.test(ua) && !T.windowsPhone.test(ua)],
  ['iPhone or iPad with Android', (ua) => T.iosDevice.test(ua) && T.android.test(ua) && !T.windowsPhone.test(ua)],
  ['Internet Explorer on a phone OS', (ua, dev) => !T.windowsPhone.test(ua) && ((T.ie.test(ua) && (T.android.test(ua) || T.iosDevice.test(ua)))
    || (dev.browser.name === 'IE' && (dev.OS.family === 'Android' || dev.OS.family === 'iOS')))],
  ['Android with desktop-only tokens', (ua) => T.android.test(ua) && T.desktopOnly.test(ua) && !T.windowsPhone.test(ua)],
  ['iOS device with desktop-only tokens', (ua) => T.iosDevice.test(ua) && T.desktopOnlyIos.test(ua) && !T.windowsPhone.test(ua)],
  ['Windows NT version that does not exist', (ua) => {
    const m = /\bWindows NT (\d+\.\d+)/i.exec(ua);
    return m !== null && !WINDOWS_NT.has(m[1]!);
  }],
];

/** Version tokens checked for absurd values: [label, regex capturing the major, ceiling]. */
const VERSIONS: ReadonlyArray<[string, RegExp, number]> = [
  ['Chrome', /\b(?:Chrome|CriOS|Chromium)\/(\d+)/i, MAX_BROWSER_MAJOR],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/i, MAX_BROWSER_MAJOR],
  ['Edge', /\b(?:Edg|EdgA|EdgiOS|Edge)\/(\d+)/i, MAX_BROWSER_MAJOR],
  ['Safari', /\bVersion\/(\d+)(?=[\d.]* (?:Mobile\/\S+ )?Safari\/)/i, MAX_OS_MAJOR],
  ['iOS', /\bOS (\d+)_\d+(?:_\d+)? like Mac OS X/i, MAX_OS_MAJOR],
  ['Android', /\bAndroid (\d+)/i, MAX_OS_MAJOR],
];

function absurdVersion(ua: string): string | null {
  for (const [label, re, ceiling] of VERSIONS) {
    const m = re.exec(ua);
    if (!m) continue;
    // Up to 9 digits read; more is absurd by itself.
    const digits = m[1]!;
    const major = digits.length > 9 ? Infinity : Number(digits);
    if (major > ceiling) return `absurd ${label} version ${digits.slice(0, 12)}`;
    if (major === 0 && label !== 'Android') return `absurd ${label} version 0`;
  }
  return null;
}

/**
 * Android emulators and virtual devices: [name, token]. Sources: the device strings the emulators
 * report (Android Studio's emulator images "Android SDK built for x86", "sdk_gphone*",
 * "generic_x86", "google_sdk"; Genymotion's "vbox86p" and "Genymotion"; the consumer emulators'
 * own names, which they leave in the Build or model field).
 */
const HIGH_RISK_DEVICES: ReadonlyArray<[string, RegExp]> = [
  ['Android SDK emulator', /\bAndroid SDK built for (?:x86|x86_64|arm64|armv7)\b/i],
  ['Android emulator (sdk_gphone)', /\bsdk_gphone\w*/i],
  ['Android emulator (generic_x86)', /\bgeneric_x86(?:_64)?\b|\bgeneric_arm64\b/i],
  ['Android emulator (google_sdk)', /\bgoogle_sdk\b/i],
  ['Android emulator', /\bAndroid Emulator\b|\bEmulator\b/i],
  ['Genymotion', /\bGenymotion\b|\bvbox86p\b/i],
  ['BlueStacks', /\bBlueStacks\b/i],
  ['NoxPlayer', /\bNox(?:Player)?\b/i],
  ['LDPlayer', /\bLDPlayer\b/i],
  ['MEmu', /\bMEmu(?:Play)?\b/i],
  ['MuMu Player', /\bMuMu(?:Player)?\b/i],
  ['KOPlayer', /\bKOPlayer\b/i],
  ['Droid4X', /\bDroid4X\b/i],
  ['AMIDuOS', /\bAMIDuOS\b/i],
  ['Windroy', /\bWindroy\b/i],
  ['YouWave', /\bYouWave\b/i],
];

function notReal(ua: string): string | null {
  if (ua.length === 0) return 'empty user agent';
  for (const [name, re] of AUTOMATION) if (re.test(ua)) return `headless browser or automation (${name})`;
  for (const [name, re] of HTTP_CLIENTS) if (re.test(ua)) return `HTTP library or command-line client (${name})`;
  const bot = detectBot(ua);
  if (bot) return `crawler or automated client (${bot.name})`;
  if (ua.length < MIN_UA_LENGTH) return `user agent too short (${ua.length} characters)`;
  const dev = parseDevice(ua);
  for (const [reason, test] of IMPOSSIBLE) if (test(ua, dev)) return `impossible combination: ${reason}`;
  return absurdVersion(ua);
}

function highRisk(ua: string): string | null {
  for (const [name, re] of HIGH_RISK_DEVICES) if (re.test(ua)) return name;
  return null;
}

/** Both device checks on a User-Agent (trimmed and cut to the IP engine's MAX_UA_LENGTH first). */
export function checkDevice(ua: string): DeviceCheck {
  const clipped = (ua.length > MAX_UA_LENGTH ? ua.slice(0, MAX_UA_LENGTH) : ua).trim();
  return { notReal: notReal(clipped), highRisk: clipped === '' ? null : highRisk(clipped) };
}
