import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectBot, isBotUserAgent, MAX_UA_LENGTH, parseDevice, unknownDevice, versionNumber, type DeviceBlock } from './device.ts';

const UA = {
  chromeWin64: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 Safari/604.1',
  chromeAndroidPhone: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36',
  chromeAndroidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  firefoxUbuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  ie11Wow64: 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko',
  chromeWin32: 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  samsungArm64: 'Mozilla/5.0 (Linux; arm_64; Android 12; SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  xbox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041',
  ps5: 'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15',
  webosTv: 'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36 WebAppManager',
  galaxyWatch: 'Mozilla/5.0 (Linux; Android 8.0.0; SM-R800) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.0 Chrome/56.0.2924.0 Mobile Safari/537.36',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  cubotPhone: 'Mozilla/5.0 (Linux; Android 11; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.45 Mobile Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36',
  curl: 'curl/8.4.0',
};

type Expect = {
  type: DeviceBlock['type'];
  isMobile: boolean;
  os: [type: string, name: string, family: string, version: string, title: string, bits: 0 | 1];
  browser: [name: string, version: number, major: string, title: string];
};

const TABLE: Array<[string, string, Expect]> = [
  ['Chrome on 64-bit Windows', UA.chromeWin64, { type: 'desktop', isMobile: false, os: ['desktop', 'Windows', 'Windows', '10', 'Windows 10', 1], browser: ['Chrome', 120, '120', 'Chrome 120'] }],
  ['Safari on iPhone', UA.safariIphone, { type: 'mobile', isMobile: true, os: ['mobile', 'iOS', 'iOS', '17.1.2', 'iOS 17.1.2', 0], browser: ['Mobile Safari', 17.1, '17', 'Mobile Safari 17'] }],
  ['Chrome on an Android phone', UA.chromeAndroidPhone, { type: 'mobile', isMobile: true, os: ['mobile', 'Android', 'Android', '14', 'Android 14', 0], browser: ['Chrome', 120, '120', 'Chrome 120'] }],
  ['Chrome on an Android tablet', UA.chromeAndroidTablet, { type: 'tablet', isMobile: true, os: ['mobile', 'Android', 'Android', '13', 'Android 13', 0], browser: ['Chrome', 119, '119', 'Chrome 119'] }],
  ['Firefox on Linux', UA.firefoxLinux, { type: 'desktop', isMobile: false, os: ['desktop', 'Linux', 'Linux', 'unknown', 'Linux', 1], browser: ['Firefox', 121, '121', 'Firefox 121'] }],
  ['Firefox on Ubuntu', UA.firefoxUbuntu, { type: 'desktop', isMobile: false, os: ['desktop', 'Ubuntu', 'Linux', 'unknown', 'Ubuntu', 1], browser: ['Firefox', 121, '121', 'Firefox 121'] }],
  ['Safari on macOS', UA.safariMac, { type: 'desktop', isMobile: false, os: ['desktop', 'Mac OS', 'MacOS', '10.15.7', 'Mac OS 10.15.7', 0], browser: ['Safari', 17.1, '17', 'Safari 17'] }],
  ['IE 11 under WOW64', UA.ie11Wow64, { type: 'desktop', isMobile: false, os: ['desktop', 'Windows', 'Windows', '7', 'Windows 7', 1], browser: ['IE', 11, '11', 'IE 11'] }],
  ['Chrome on 32-bit Windows', UA.chromeWin32, { type: 'desktop', isMobile: false, os: ['desktop', 'Windows', 'Windows', '10', 'Windows 10', 0], browser: ['Chrome', 120, '120', 'Chrome 120'] }],
  ['Chrome on arm64 Android', UA.samsungArm64, { type: 'mobile', isMobile: true, os: ['mobile', 'Android', 'Android', '12', 'Android 12', 1], browser: ['Chrome', 120, '120', 'Chrome 120'] }],
  ['Safari on iPad', UA.ipad, { type: 'tablet', isMobile: true, os: ['mobile', 'iOS', 'iOS', '17.1', 'iOS 17.1', 0], browser: ['Mobile Safari', 17.1, '17', 'Mobile Safari 17'] }],
  ['Edge on Xbox', UA.xbox, { type: 'console', isMobile: false, os: ['console', 'Xbox', 'Xbox', 'One', 'Xbox One', 1], browser: ['Edge', 18.19041, '18', 'Edge 18'] }],
  ['PlayStation 5', UA.ps5, { type: 'console', isMobile: false, os: ['console', 'PlayStation', 'PlayStation', '5', 'PlayStation 5', 0], browser: ['Safari', 13, '13', 'Safari 13'] }],
  ['webOS smart TV', UA.webosTv, { type: 'smarttv', isMobile: false, os: ['smarttv', 'webOS', 'webOS', 'TV', 'webOS TV', 0], browser: ['Chrome', 79, '79', 'Chrome 79'] }],
  ['Galaxy Watch', UA.galaxyWatch, { type: 'wearable', isMobile: true, os: ['mobile', 'Android', 'Android', '8.0.0', 'Android 8.0.0', 0], browser: ['Samsung Internet', 2, '2', 'Samsung Internet 2'] }],
  ['Chromebook', UA.chromebook, { type: 'desktop', isMobile: false, os: ['desktop', 'Chromium OS', 'ChromeOS', '14541.0.0', 'Chromium OS 14541.0.0', 1], browser: ['Chrome', 120, '120', 'Chrome 120'] }],
  ['a CUBOT phone is not a bot', UA.cubotPhone, { type: 'mobile', isMobile: true, os: ['mobile', 'Android', 'Android', '11', 'Android 11', 0], browser: ['Chrome', 96, '96', 'Chrome 96'] }],
  ['Googlebot', UA.googlebot, { type: 'bot', isMobile: false, os: ['unknown', 'unknown', 'unknown', 'unknown', 'unknown', 0], browser: ['Googlebot', 2.1, '2', 'Googlebot 2'] }],
  ['Googlebot smartphone is a bot, not a mobile', UA.googlebotSmartphone, { type: 'bot', isMobile: false, os: ['mobile', 'Android', 'Android', '6.0.1', 'Android 6.0.1', 0], browser: ['Chrome', 120, '120', 'Chrome 120'] }],
  ['headless Chrome', UA.headless, { type: 'bot', isMobile: false, os: ['desktop', 'Linux', 'Linux', 'unknown', 'Linux', 1], browser: ['Chrome Headless', 120, '120', 'Chrome Headless 120'] }],
  ['curl', UA.curl, { type: 'bot', isMobile: false, os: ['unknown', 'unknown', 'unknown', 'unknown', 'unknown', 0], browser: ['curl', 8.4, '8', 'curl 8'] }],
];

describe('parseDevice', () => {
  for (const [label, ua, e] of TABLE) {
    it(label, () => {
      const d = parseDevice(ua);
      assert.deepEqual(d, {
        isMobile: e.isMobile,
        type: e.type,
        OS: { type: e.os[0], name: e.os[1], family: e.os[2], version: e.os[3], title: e.os[4], '64bits_mode': e.os[5] },
        browser: { name: e.browser[0], version: e.browser[1], versionMajor: e.browser[2], title: e.browser[3] },
      });
    });
  }

  it('missing, empty and blank UAs give the all-unknown block', () => {
    for (const ua of [undefined, '', '   ']) assert.deepEqual(parseDevice(ua), unknownDevice());
    const u = unknownDevice();
    assert.equal(u.type, 'unknown');
    assert.equal(u.browser.version, 0);
    assert.equal(u.OS['64bits_mode'], 0);
    assert.equal(u.OS.title, 'unknown');
  });

  it('a non-string at run time (untyped JSON input) gives the unknown block, not a throw', () => {
    assert.deepEqual(parseDevice(42 as unknown as string), unknownDevice());
    assert.deepEqual(parseDevice(null as unknown as string), unknownDevice());
  });

  it('10 kB of garbage is capped, parsed quickly and gives a defined block', () => {
    const garbage = Array.from({ length: 10_240 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('');
    const started = performance.now();
    const d = parseDevice(garbage);
    assert.ok(performance.now() - started < 200);
    assert.equal(typeof d.type, 'string');
    assert.equal(typeof d.browser.version, 'number');
    assert.ok(Number.isFinite(d.browser.version));
    // Nested quantifier bait: a long run of one character, then a near-miss.
    const bait = `Mozilla/5.0 (${'a'.repeat(20_000)}`;
    assert.equal(parseDevice(bait).type, 'unknown');
  });

  it('only the first MAX_UA_LENGTH characters count', () => {
    const padded = `${UA.chromeWin64} ${'x'.repeat(MAX_UA_LENGTH)}`;
    assert.equal(parseDevice(padded).browser.name, 'Chrome');
    const late = `${'x'.repeat(MAX_UA_LENGTH)} curl/8.4.0`;
    assert.equal(isBotUserAgent(late), false);
  });

  it('returns a fresh object each time', () => {
    const a = parseDevice(undefined);
    a.OS.name = 'changed';
    assert.equal(parseDevice(undefined).OS.name, 'unknown');
  });
});

describe('versionNumber', () => {
  it('keeps major.minor as a number', () => {
    assert.equal(versionNumber('120.0.6099.109'), 120);
    assert.equal(versionNumber('17.1.2'), 17.1);
    assert.equal(versionNumber('11'), 11);
    assert.equal(versionNumber('beta'), 0);
    assert.equal(versionNumber(undefined), 0);
  });
});

describe('isBotUserAgent', () => {
  const bots: Array<[string, string]> = [
    ['Googlebot', UA.googlebot],
    ['Googlebot', 'Googlebot-Image/1.0'],
    ['Bingbot', UA.bingbot],
    ['YandexBot', 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)'],
    ['Baiduspider', 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)'],
    ['DuckDuckBot', 'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)'],
    ['Applebot', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)'],
    ['facebookexternalhit', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
    ['GPTBot', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'],
    ['curl', UA.curl],
    ['Wget', 'Wget/1.21.4'],
    ['python-requests', 'python-requests/2.31.0'],
    ['Python-urllib', 'Python-urllib/3.11'],
    ['Go-http-client', 'Go-http-client/1.1'],
    ['Scrapy', 'Scrapy/2.11.0 (+https://scrapy.org)'],
    ['HeadlessChrome', UA.headless],
    ['PhantomJS', 'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1'],
    ['Selenium', 'Mozilla/5.0 Selenium/4.15'],
    ['Java', 'Java/17.0.2'],
    ['okhttp', 'okhttp/4.12.0'],
    ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
    ['PostmanRuntime', 'PostmanRuntime/7.36.0'],
    ['zgrab', 'Mozilla/5.0 zgrab/0.x'],
  ];
  for (const [name, ua] of bots) {
    it(`detects ${name}: ${ua.slice(0, 60)}`, () => {
      assert.equal(isBotUserAgent(ua), true);
      assert.equal(detectBot(ua)?.name, name);
    });
  }

  it('generic crawler names and contact URLs', () => {
    assert.equal(detectBot('Mozilla/5.0 (compatible; NewThingBot/0.3; +https://example.com/bot)')?.name, 'NewThingBot');
    assert.equal(detectBot('AcmeCrawler/1.0')?.version, '1.0');
    assert.equal(detectBot('Mozilla/5.0 (compatible; Acme; +http://acme.example/about)')?.name, 'bot');
  });

  it('takes the version that follows the token', () => {
    assert.deepEqual(detectBot(UA.googlebot), { name: 'Googlebot', version: '2.1' });
    assert.deepEqual(detectBot('curl'), { name: 'curl', version: null });
  });

  it('ordinary browsers and look-alike words are not bots', () => {
    for (const ua of [UA.chromeWin64, UA.safariIphone, UA.chromeAndroidPhone, UA.chromeAndroidTablet, UA.firefoxLinux, UA.safariMac, UA.cubotPhone, UA.xbox, UA.webosTv, 'curly/1.0', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 YaBrowser/23.11.0.0 Safari/537.36']) {
      assert.equal(isBotUserAgent(ua), false, ua);
    }
    assert.equal(isBotUserAgent(undefined), false);
    assert.equal(isBotUserAgent(''), false);
  });
});
