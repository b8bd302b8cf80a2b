import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkDevice, MIN_UA_LENGTH } from './device.ts';

/** Real browsers, current and a few years old: neither check fires. */
const REAL: Array<[string, string]> = [
  ['Chrome on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.109 Safari/537.36'],
  ['Chrome on Windows (reduced UA)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
  ['Edge on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91'],
  ['Opera on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0'],
  ['Firefox on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'],
  ['IE 11 on Windows 7', 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko'],
  ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'],
  ['Firefox on Ubuntu', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'],
  ['GNOME Web (Safari engine on Linux)', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'],
  ['Chromebook', 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'],
  ['Safari on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15'],
  ['Firefox on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0'],
  ['Chrome on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'],
  ['Safari on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 Safari/604.1'],
  ['Safari on iOS 26', 'Mozilla/5.0 (iPhone; CPU iPhone OS 26_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1'],
  ['Safari on iPad', 'Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1'],
  ['Chrome on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1'],
  ['Firefox on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/121.0 Mobile/15E148 Safari/605.1.15'],
  ['Facebook app on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.34.109;]'],
  ['Instagram app on iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.0.28.111 (iPhone14,5; iOS 17_1; en_US)'],
  ['Chrome on Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36'],
  ['Chrome on Android (reduced UA)', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'],
  ['Chrome on an Android tablet', 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Safari/537.36'],
  ['Samsung Internet', 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36'],
  ['Firefox on Android', 'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0'],
  ['Android WebView (Facebook app)', 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/444.0.0.0.0;]'],
  ['old Android stock browser', 'Mozilla/5.0 (Linux; U; Android 4.0.3; ko-kr; LG-L160L Build/IML74K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30'],
  ['Opera on Android', 'Mozilla/5.0 (Linux; Android 12; SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 OPR/79.0.4195.76632'],
  ['a CUBOT phone', 'Mozilla/5.0 (Linux; Android 11; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.45 Mobile Safari/537.36'],
  ['Windows Phone (IE claiming Android and iPhone)', 'Mozilla/5.0 (Mobile; Windows Phone 8.1; Android 4.0; ARM; Trident/7.0; Touch; rv:11.0; IEMobile/11.0; NOKIA; Lumia 635) like iPhone OS 7_0_3 Mac OS X AppleWebKit/537 (KHTML, like Gecko) Mobile Safari/537'],
  ['Slack desktop (Electron)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.35.131 Chrome/118.0.5993.144 Electron/27.1.3 Safari/537.36'],
  ['PlayStation 5', 'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15'],
];

describe('checkDevice: real browsers', () => {
  for (const [name, ua] of REAL) {
    it(`${name}: neither check fires`, () => {
      assert.deepEqual(checkDevice(ua), { notReal: null, highRisk: null });
    });
  }
});

/** PF10013 cases: [category, UA, a fragment of the reason]. */
const NOT_REAL: Array<[string, string, string]> = [
  ['empty', '', 'empty'],
  ['blank', '   ', 'empty'],
  ['very short', 'Mozilla/5.0', 'too short'],
  ['very short junk', 'test', 'too short'],
  ['HeadlessChrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36', 'HeadlessChrome'],
  ['PhantomJS', 'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1', 'PhantomJS'],
  ['Selenium', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Selenium/4.15 Chrome/120.0.0.0 Safari/537.36', 'Selenium'],
  ['Puppeteer', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Puppeteer', 'Puppeteer'],
  ['Playwright', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Playwright/1.40', 'Playwright'],
  ['curl', 'curl/8.4.0', 'curl'],
  ['wget', 'Wget/1.21.4', 'Wget'],
  ['python-requests', 'python-requests/2.31.0', 'python-requests'],
  ['Go-http-client', 'Go-http-client/1.1', 'Go-http-client'],
  ['okhttp', 'okhttp/4.12.0', 'okhttp'],
  ['Java', 'Java/17.0.2', 'Java'],
  ['Apache HttpClient', 'Apache-HttpClient/4.5.14 (Java/17.0.2)', 'Java'],
  ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', 'node-fetch'],
  ['axios', 'axios/1.6.2', 'axios'],
  ['Googlebot (a crawler does not pay)', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
  ['Scrapy', 'Scrapy/2.11.0 (+https://scrapy.org)', 'Scrapy'],
  ['Safari engine on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15', 'Safari engine on Windows'],
  ['Safari engine on Android', 'Mozilla/5.0 (Linux; Android 13) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'Safari engine on Android'],
  ['iPhone with Windows NT', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X; Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'iPhone or iPad with Windows NT'],
  ['iPhone with Android', 'Mozilla/5.0 (iPhone; Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'iPhone or iPad with Android'],
  ['Internet Explorer on Android', 'Mozilla/5.0 (compatible; MSIE 10.0; Android 12; Trident/6.0)', 'Internet Explorer on a phone OS'],
  ['Android with Win64', 'Mozilla/5.0 (Linux; Android 14; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Android with desktop-only tokens'],
  ['Android with Macintosh', 'Mozilla/5.0 (Macintosh; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Android with desktop-only tokens'],
  ['iPad with X11', 'Mozilla/5.0 (iPad; X11; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'iOS device with desktop-only tokens'],
  ['Windows NT 11.0', 'Mozilla/5.0 (Windows NT 11.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 'Windows NT version that does not exist'],
  ['Chrome 999', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/999.0.0.0 Safari/537.36', 'absurd Chrome version'],
  ['Chrome 0', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/0.1.0.0 Safari/537.36', 'absurd Chrome version 0'],
  ['Firefox 5000', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:5000.0) Gecko/20100101 Firefox/5000.0', 'absurd Firefox version'],
  ['a 30-digit version', `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${'9'.repeat(30)}.0 Safari/537.36`, 'absurd Chrome version'],
  ['iOS 120', 'Mozilla/5.0 (iPhone; CPU iPhone OS 120_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'absurd iOS version'],
  ['Safari 300', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/300.1 Safari/605.1.15', 'absurd Safari version'],
  ['Android 250', 'Mozilla/5.0 (Linux; Android 250; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'absurd Android version'],
];

describe('checkDevice: PF10013, device might not be real', () => {
  for (const [name, ua, fragment] of NOT_REAL) {
    it(`${name}`, () => {
      const r = checkDevice(ua);
      assert.ok(r.notReal !== null, `${name} should fire`);
      assert.ok(r.notReal.includes(fragment), `"${r.notReal}" should mention "${fragment}"`);
    });
  }

  it(`a UA of ${MIN_UA_LENGTH} characters is not "too short"`, () => {
    assert.equal(checkDevice('A'.repeat(MIN_UA_LENGTH)).notReal, null);
    assert.match(checkDevice('A'.repeat(MIN_UA_LENGTH - 1)).notReal ?? '', /too short/);
  });

  it('a huge UA is cut, never slow, and still judged', () => {
    const ua = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 ${'x'.repeat(100_000)}`;
    const t0 = performance.now();
    assert.deepEqual(checkDevice(ua), { notReal: null, highRisk: null });
    assert.ok(performance.now() - t0 < 200);
  });
});

/** PF10014 cases: [name, UA, reported name]. */
const HIGH_RISK: Array<[string, string, string]> = [
  ['Android Studio emulator', 'Mozilla/5.0 (Linux; Android 9; Android SDK built for x86 Build/PSR1.180720.075) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/69.0.3497.100 Mobile Safari/537.36', 'Android SDK emulator'],
  ['sdk_gphone', 'Mozilla/5.0 (Linux; Android 11; sdk_gphone_x86 Build/RSR1.201013.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36', 'sdk_gphone'],
  ['generic_x86', 'Dalvik/2.1.0 (Linux; U; Android 7.0; generic_x86 Build/NYC)', 'generic_x86'],
  ['Genymotion', 'Mozilla/5.0 (Linux; Android 10; Genymotion Build/QQ1D.200105.002) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/74.0.3729.186 Mobile Safari/537.36', 'Genymotion'],
  ['Genymotion vbox86p', 'Dalvik/2.1.0 (Linux; U; Android 9; vbox86p Build/PI)', 'Genymotion'],
  ['BlueStacks', 'Mozilla/5.0 (Linux; Android 7.1.2; SM-G955N Build/N2G48H; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/92.0.4515.131 Mobile Safari/537.36 BlueStacks', 'BlueStacks'],
  ['Nox', 'Mozilla/5.0 (Linux; Android 9; SM-G977N Build/PQ3A; Nox) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.114 Mobile Safari/537.36', 'NoxPlayer'],
  ['LDPlayer', 'Mozilla/5.0 (Linux; Android 9; ASUS_Z01QD Build/PI; LDPlayer) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.114 Mobile Safari/537.36', 'LDPlayer'],
  ['MEmu', 'Mozilla/5.0 (Linux; Android 7.1.2; MEmu Build/N2G48C) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/75.0.3770.143 Mobile Safari/537.36', 'MEmu'],
];

describe('checkDevice: PF10014, high-risk device signatures', () => {
  for (const [name, ua, reported] of HIGH_RISK) {
    it(`${name}`, () => {
      const r = checkDevice(ua);
      assert.ok(r.highRisk !== null && r.highRisk.includes(reported), `${name}: ${String(r.highRisk)}`);
    });
  }

  it('an emulator UA is not also "not real" by itself (the two rules are independent)', () => {
    assert.equal(checkDevice(HIGH_RISK[0]![1]).notReal, null);
  });

  it('word boundaries: "Noxious" and "generic_x86abc" do not match', () => {
    assert.equal(checkDevice('Mozilla/5.0 (Linux; Android 14; Noxious 5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36').highRisk, null);
    assert.equal(checkDevice('Mozilla/5.0 (Linux; Android 14; generic_x86abc) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36').highRisk, null);
  });
});
