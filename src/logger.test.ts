import assert from 'node:assert/strict';
import { parse } from 'node:querystring';
import { describe, it } from 'node:test';
import { loggedUrl } from './logger.ts';

/** The URL with its query parsed as a server does (names and values decoded, repeats as arrays). */
const logged = (url: string): string => loggedUrl(url, url.includes('?') ? parse(url.slice(url.indexOf('?') + 1)) : {});

describe('loggedUrl', () => {
  const cases: Array<[string, string]> = [
    ['/lookup/country?CountryCode=DE&key=svc_live_abcdef0123456789', '/lookup/country?CountryCode=DE&key=[REDACTED]'],
    ['/lookup/iban?iban=DE89%203704%200044%200532%200130%2000', '/lookup/iban?iban=DE89**************3000'],
    ['/scoring/email?email=john.doe%40example.com&key=k', '/scoring/email?email=j******e@example.com&key=[REDACTED]'],
    ['/scoring/phone?phone=%2B44%207911%20123456&countryCode=GB', '/scoring/phone?phone=4479*****456&countryCode=GB'],
    ['/scoring/profanity?text=you%20are%20an%20idiot&listBadWords=yes', '/scoring/profanity?text=[16 characters]&listBadWords=yes'],
    // Percent-encoded names authenticate as `key`: they are redacted by their decoded name.
    ['/lookup/ip?ip=1.1.1.1&%6Bey=svc_live_abcdef0123456789', '/lookup/ip?ip=1.1.1.1&key=[REDACTED]'],
    ['/lookup/ip?ip=1.1.1.1&k%65y=svc_live_abcdef0123456789', '/lookup/ip?ip=1.1.1.1&key=[REDACTED]'],
    ['/lookup/ip?key=svc_live_a0000000000000000&key=svc_live_b0000000000000000', '/lookup/ip?key=[REDACTED]&key=[REDACTED]'],
    ['/lookup/ip?KEY=svc_live_a0000000000000000&api_key=x&token=y&ip=8.8.8.8', '/lookup/ip?KEY=[REDACTED]&api_key=[REDACTED]&token=[REDACTED]&ip=8.8.8.8'],
    ['/lookup/country', '/lookup/country'],
  ];
  for (const [url, out] of cases) it(url, () => assert.equal(logged(url), out));

  it('never lets the personal value or the key through', () => {
    const out = logged('/scoring/email?email=someone.special%40example.org&phone=447911123456&iban=GB82WEST12345698765432&%6B%65%79=svc_live_secret0000000000');
    for (const secret of ['someone.special', '7911123', 'WEST12345698', 'svc_live_secret']) assert.ok(!out.includes(secret), out);
  });
});
