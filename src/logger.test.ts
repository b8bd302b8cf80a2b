import assert from 'node:assert/strict';
import { parse } from 'node:querystring';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { createLogger, loggedUrl, outsideRequests, requestScope } from './logger.ts';

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

describe('request scope in log lines', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>); done(); } });
    return { logger: createLogger('info', sink), lines };
  };

  it('a line inside a request carries its reqId, after awaits too; outside none; the scope object stays as it was', async () => {
    const { logger, lines } = capture();
    logger.info('before');
    const scope = { reqId: 'r-1' };
    await requestScope.run(scope, async () => {
      logger.info({ a: 1 }, 'sync');
      await new Promise((r) => setTimeout(r, 1));
      logger.warn({ b: 2 }, 'after await');
      logger.error({ reqId: 'explicit' }, 'own id');
      outsideRequests(() => logger.info('outside'));
    });
    logger.info('after');
    assert.deepEqual(lines.map((l) => [l.msg, l.reqId]), [['before', undefined], ['sync', 'r-1'], ['after await', 'r-1'], ['own id', 'explicit'], ['outside', undefined], ['after', undefined]]);
    assert.deepEqual(scope, { reqId: 'r-1' });
    assert.equal(lines[1]?.a, 1);
  });
});
