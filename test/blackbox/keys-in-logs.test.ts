/**
 * Black box: however a key is sent, it never reaches the log of the real server process, at any level.
 * Every form below authenticates (or is refused as ambiguous) exactly as the server reads it; the
 * captured pino output must hold none of the keys, raw or percent-encoded.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, stop, type Running } from '../helpers/server-process.ts';

const KEY = 'svc_live_logsecret000000000000000001';
const BEARER = 'svc_live_logsecret000000000000000002';
const UNKNOWN = 'svc_live_logsecret000000000000000003';
const ALL_KEYS = [KEY, BEARER, UNKNOWN];
/** The secret part, also percent-encoded letter by letter (as a client may send it). */
const leaks = (out: string): string[] =>
  ALL_KEYS.flatMap((k) => [k, k.slice(9), [...k].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')]).filter((needle) => out.toLowerCase().includes(needle.toLowerCase()));

interface Form {
  name: string;
  path: string;
  init?: RequestInit;
  /** The answer's code (0 = success). */
  code: number;
}

const FORMS: Form[] = [
  { name: 'key=', path: `/lookup/country?CountryCode=DE&key=${KEY}`, code: 0 },
  { name: '%6Bey=', path: `/lookup/country?CountryCode=DE&%6Bey=${KEY}`, code: 0 },
  { name: 'k%65y=', path: `/lookup/country?CountryCode=DE&k%65y=${KEY}`, code: 0 },
  { name: 'every letter of the name and value encoded', path: `/lookup/country?CountryCode=DE&%6B%65%79=${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`, code: 0 },
  { name: 'Authorization: Bearer', path: '/lookup/country?CountryCode=DE', init: { headers: { authorization: `Bearer ${BEARER}` } }, code: 0 },
  { name: 'Bearer and key= together', path: `/lookup/country?CountryCode=DE&key=${KEY}`, init: { headers: { authorization: `Bearer ${BEARER}` } }, code: 0 },
  { name: 'repeated key', path: `/lookup/country?CountryCode=DE&key=${KEY}&key=${UNKNOWN}`, code: 101 },
  { name: 'repeated, one encoded', path: `/lookup/country?CountryCode=DE&key=${KEY}&%6Bey=${KEY}`, code: 101 },
  { name: 'an unknown key', path: `/lookup/country?CountryCode=DE&key=${UNKNOWN}`, code: 101 },
  { name: 'KEY= (not read as the key, still redacted)', path: `/lookup/country?CountryCode=DE&KEY=${UNKNOWN}`, code: 101 },
  // Bodies never carry the key (it is read from the query or the header only) and are never logged.
  {
    name: 'a key in a JSON body',
    path: `/scoring/payment?key=${KEY}`,
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: UNKNOWN, data: { transaction_id: 'k-1' } }) },
    code: 0,
  },
  { name: 'a key in a body that fails', path: `/scoring/payment?k%65y=${KEY}`, init: { method: 'POST', body: `{"key": "${UNKNOWN}", "data": ` }, code: 130 },
];

for (const level of ['trace', 'debug', 'info']) {
  describe(`black box: keys are never logged at LOG_LEVEL=${level}`, () => {
    let dir: string;
    let s: Running;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'vigil-keylog-'));
      writeFileSync(join(dir, 'seed.json'), JSON.stringify({ accounts: [{ id: 'acme', plan: 'premium', keys: [KEY, BEARER] }] }));
      s = await startServer({ DATA_DIR: dir, SEED_FILE: join(dir, 'seed.json'), LOG_LEVEL: level, DATABASE_URL: '', REDIS_URL: '' });
    });
    after(async () => {
      await stop(s);
      rmSync(dir, { recursive: true, force: true });
    });

    it('every way of sending a key answers as the server reads it, and the log holds none of them', async () => {
      for (const form of FORMS) {
        const r = await fetch(`http://127.0.0.1:${s.port}${form.path}`, form.init);
        const body = (await r.json()) as { status: string; code?: number };
        assert.equal(body.code ?? 0, form.code, `${form.name}: ${JSON.stringify(body)}`);
      }
      // Let the decision log and the request log write what they hold, then stop: shutdown lines too.
      await new Promise((r) => setTimeout(r, 1200));
      await stop(s);
      const out = s.output();
      if (level !== 'info') {
        const lines = out.split('\n').filter((l) => l.includes('"msg":"request"'));
        assert.equal(lines.length, FORMS.length, out);
        assert.ok(lines.some((l) => l.includes('key=[REDACTED]')), out);
      }
      assert.deepEqual(leaks(out), [], out);
    });
  });
}
