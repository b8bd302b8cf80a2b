import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scrubUrl } from './logger.ts';

describe('scrubUrl', () => {
  const cases: Array<[string, string]> = [
    ['/lookup/country?CountryCode=DE&key=svc_live_abcdef0123456789', '/lookup/country?CountryCode=DE&key=[REDACTED]'],
    ['/lookup/iban?iban=DE89%203704%200044%200532%200130%2000', '/lookup/iban?iban=DE89**************3000'],
    ['/scoring/email?email=john.doe%40example.com&key=k', '/scoring/email?email=j******e@example.com&key=[REDACTED]'],
    ['/scoring/phone?phone=%2B44%207911%20123456&countryCode=GB', '/scoring/phone?phone=4479*****456&countryCode=GB'],
    ['/scoring/profanity?text=you%20are%20an%20idiot&listBadWords=yes', '/scoring/profanity?text=[16 characters]&listBadWords=yes'],
    ['/scoring/email?email=%E0%A4%A', '/scoring/email?email=%******A'],
  ];
  for (const [url, logged] of cases) it(url, () => assert.equal(scrubUrl(url), logged));

  it('never lets the personal value through', () => {
    const out = scrubUrl('/scoring/email?email=someone.special%40example.org&phone=447911123456&iban=GB82WEST12345698765432');
    for (const secret of ['someone.special', '7911123', 'WEST12345698']) assert.ok(!out.includes(secret), out);
  });
});
