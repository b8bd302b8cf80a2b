import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveKey, makeTestApp, testKey, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('profanity');
const TKEY = testKey('profanity');
let t: TestApp;
before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'p', plan: 'premium', keys: [KEY, TKEY] }] } });
});
after(() => t.close());

interface Body {
  status: string;
  code?: number;
  type?: string;
  description?: string;
  executionTime?: number;
  data: Record<string, unknown>;
}

async function get(query: Record<string, string | string[]>, key = KEY) {
  const res = await t.app.inject({ method: 'GET', url: '/scoring/profanity', query: { key, ...query } });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body) as Body;
}

describe('GET /scoring/profanity', () => {
  it('answers the spec shape inside the standard envelope', async () => {
    const body = await get({ text: 'have a nice day' });
    assert.equal(body.status, 'success');
    assert.ok(Number.isInteger(body.executionTime));
    assert.deepEqual(Object.keys(body.data), ['isML', 'text', 'totalBadWords', 'riskScore', 'isSafe']);
    assert.equal(body.data.text, 'have a nice day');
    assert.equal(body.data.isML, true);
    assert.equal(body.data.totalBadWords, 0);
    assert.equal(body.data.isSafe, true);
    assert.ok(typeof body.data.riskScore === 'number' && body.data.riskScore < 0.5);
  });

  it('flags profanity, lists the words as written, counts them', async () => {
    const body = await get({ text: 'F.U.C.K this sh1t, fuck', listBadWords: 'yes' });
    assert.equal(body.data.isSafe, false);
    assert.ok((body.data.riskScore as number) >= 0.5);
    assert.deepEqual(body.data.badWords, ['F.U.C.K', 'sh1t', 'fuck']);
    assert.equal(body.data.totalBadWords, 3);
  });

  it('catches abuse without swear words: an addressed insult and incitement to self-harm', async () => {
    const body = await get({ text: 'you are worthless, go die', listBadWords: 'yes' });
    assert.equal(body.data.isML, true);
    assert.deepEqual(body.data.badWords, ['worthless', 'go die']);
    assert.equal(body.data.isSafe, false);
  });

  it('keeps whitelisted words clean', async () => {
    for (const text of ['The assassin from Scunthorpe', 'cocktails and Dickens']) {
      const body = await get({ text, listBadWords: 'YES' });
      assert.deepEqual(body.data.badWords, [], text);
      assert.equal(body.data.isSafe, true, text);
    }
  });

  it('scores every language; totalBadWords is null when the model took no part', async () => {
    const body = await get({ text: 'ты сука', listBadWords: 'yes' });
    assert.equal(body.data.isML, false);
    assert.equal(body.data.totalBadWords, null);
    assert.equal(body.data.isSafe, false);
    assert.deepEqual(body.data.badWords, ['сука']);
    for (const text of ['Du Arschloch', 'putain', 'hijo de puta', 'كس امك', '死ね', '操你妈']) {
      assert.equal((await get({ text })).data.isSafe, false, text);
    }
  });

  it('scoreOnly=yes answers only riskScore and isSafe; listBadWords still adds the list', async () => {
    const only = await get({ text: 'fuck', scoreOnly: 'yes' });
    assert.deepEqual(Object.keys(only.data), ['riskScore', 'isSafe']);
    const both = await get({ text: 'fuck', scoreOnly: 'Yes', listBadWords: 'yes' });
    assert.deepEqual(Object.keys(both.data), ['riskScore', 'isSafe', 'badWords']);
    assert.deepEqual(both.data.badWords, ['fuck']);
  });

  it('treats any other scoreOnly or listBadWords value as no, like explain', async () => {
    for (const v of ['no', 'NO', '', 'true', '1', 'maybe']) {
      const body = await get({ text: 'fuck', scoreOnly: v, listBadWords: v });
      assert.deepEqual(Object.keys(body.data), ['isML', 'text', 'totalBadWords', 'riskScore', 'isSafe'], v);
    }
  });

  it('104 for a repeated scoreOnly or listBadWords', async () => {
    for (const name of ['scoreOnly', 'listBadWords']) {
      const body = await get({ text: 'hello', [name]: ['yes', 'no'] });
      assert.equal(body.status, 'error');
      assert.equal(body.code, 104);
      assert.match(body.description ?? '', new RegExp(name));
    }
  });

  it('returns the text as sent, including RTL, emoji and zero-width characters', async () => {
    const text = 'مرحبا \u200b 👋🏽 שלום \u202e';
    const body = await get({ text });
    assert.equal(body.data.text, text);
    assert.equal(body.data.isSafe, true);
  });

  it('accepts exactly 10,000 characters, counted as code points', async () => {
    for (const text of ['a'.repeat(10_000), '😀'.repeat(10_000), 'é'.repeat(10_000), `${'word '.repeat(1_999)}fuck`]) {
      const body = await get({ text, scoreOnly: 'yes' });
      assert.equal(body.status, 'success', `${[...text].length} code points`);
    }
  });

  const bad: Array<[string, Record<string, string | string[]>]> = [
    ['missing text', {}],
    ['empty text', { text: '' }],
    ['blank text', { text: '   \n\t' }],
    ['10,001 characters', { text: 'a'.repeat(10_001) }],
    ['10,001 emoji', { text: '😀'.repeat(10_001) }],
    ['repeated text', { text: ['hello', 'world'] }],
  ];
  for (const [name, q] of bad) {
    it(`129 for ${name}`, async () => {
      const body = await get(q);
      assert.equal(body.status, 'error');
      assert.equal(body.code, 129);
      assert.equal(body.type, 'invalid_text');
      assert.ok((body.description ?? '').length > 10 && (body.description ?? '').length < 200);
    });
  }

  it('129 names the length for oversized text', async () => {
    const body = await get({ text: 'ab'.repeat(6_000) });
    assert.match(body.description ?? '', /12,000 characters; at most 10,000/);
  });

  it('never answers a 5xx for hostile input', async () => {
    const hostile = ['\u0000', '\ud800', '%', '<script>alert(1)</script>', "'; DROP TABLE events; --", '\u0301'.repeat(5_000), '\u200b'.repeat(10_000), '🖕'.repeat(10_000)];
    for (const text of hostile) {
      const res = await t.app.inject({ method: 'GET', url: '/scoring/profanity', query: { key: KEY, text } });
      assert.equal(res.statusCode, 200);
      assert.ok(['success', 'error'].includes((JSON.parse(res.body) as Body).status));
    }
    const raw = await t.app.inject({ method: 'GET', url: `/scoring/profanity?key=${KEY}&text=%E0%A4%A` });
    assert.ok(raw.statusCode < 500, String(raw.statusCode));
  });

  it('XML and CSV carry the fields', async () => {
    const xml = await t.app.inject({ method: 'GET', url: '/scoring/profanity', query: { key: KEY, text: 'fuck <you>', listBadWords: 'yes', format: 'xml' } });
    assert.match(xml.body, /<riskScore>[\d.]+<\/riskScore>/);
    assert.match(xml.body, /<badWords><item>fuck<\/item><\/badWords>/);
    assert.match(xml.body, /<text>fuck &lt;you&gt;<\/text>/);
    const csv = await t.app.inject({ method: 'GET', url: '/scoring/profanity', query: { key: KEY, text: 'hi', format: 'csv' } });
    assert.equal(csv.body.split('\r\n')[0], 'isML,text,totalBadWords,riskScore,isSafe');
  });

  it('explain=yes lists the word lists and the model', async () => {
    const body = await get({ text: 'hello', explain: 'yes' });
    const names = (body.data.explanation as { datasets: Array<{ name: string }> }).datasets.map((d) => d.name).join(' | ');
    assert.match(names, /obscenity/);
    assert.match(names, /naughty|Dirty/i);
    assert.match(names, /classifier/);
    assert.match(names, /abuse patterns/);
  });
});

describe('test mode', () => {
  it('is deterministic per text, same shape, realistic', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `sample message number ${i} about the weather`);
    let flagged = 0;
    for (const text of texts) {
      const a = await get({ text, listBadWords: 'yes' }, TKEY);
      const b = await get({ text, listBadWords: 'yes' }, TKEY);
      assert.deepEqual(a.data, b.data);
      assert.deepEqual(Object.keys(a.data), ['isML', 'text', 'totalBadWords', 'riskScore', 'isSafe', 'badWords']);
      assert.equal(a.data.text, text);
      const risk = a.data.riskScore as number;
      assert.ok(risk >= 0 && risk <= 1);
      assert.equal(a.data.isSafe, risk < 0.5);
      const words = a.data.badWords as string[];
      assert.equal(a.data.totalBadWords, words.length);
      for (const w of words) assert.ok(text.includes(w), w);
      if (!a.data.isSafe) flagged++;
    }
    assert.ok(flagged > 0 && flagged < texts.length, `flagged ${flagged} of ${texts.length}`);
  });

  it('validates like live mode and raises no event', async () => {
    assert.equal((await get({ text: '' }, TKEY)).code, 129);
    const before = await t.store.events.listEvents('p', { kind: 'profanity' });
    await get({ text: 'fuck you' }, TKEY);
    await get({ text: 'fuck you', mode: 'test' });
    assert.equal((await t.store.events.listEvents('p', { kind: 'profanity' })).length, before.length);
  });
});

describe('events and storage', () => {
  it('raises a profanity event from risk 0.5 with the masked text only', async () => {
    const secretText = 'Listen Zebraquux, you fucking asshole';
    await get({ text: secretText, userID: 'user-42' });
    const events = await t.store.events.listEvents('p', { kind: 'profanity', userId: 'user-42' });
    assert.equal(events.length, 1);
    const e = events[0];
    assert.ok(e);
    assert.ok(e.risk >= 0.5 && e.risk <= 1);
    assert.equal(e.subject, 'L****n Z*******x, y*u f*****g a*****e', 'every word is masked, names too');
    assert.deepEqual(Object.keys(e.summary).sort(), ['explanation', 'isSafe', 'riskScore', 'totalBadWords']);
    assert.equal(e.summary.totalBadWords, 2);
    // The parts the risk combines, as the engine computed them (no words, no text).
    const [dictionary, ...rest] = (e.summary.explanation as { contributions: Array<{ source: string; weight: number; hits?: number }> }).contributions;
    assert.equal(dictionary?.source, 'dictionary');
    assert.equal(dictionary?.hits, 2);
    assert.ok(dictionary.weight > 0 && dictionary.weight <= e.risk);
    assert.ok(rest.every((c) => c.source === 'model' && c.weight >= 0 && c.weight <= 1));
    assert.doesNotMatch(JSON.stringify(e.summary), /asshole|fucking|Zebraquux/);
    assert.equal(e.operation, 'scoring.profanity');
  });

  it('raises nothing for safe text, and cuts long subjects to 100 characters', async () => {
    await get({ text: 'have a lovely day', userID: 'user-43' });
    assert.equal((await t.store.events.listEvents('p', { kind: 'profanity', userId: 'user-43' })).length, 0);
    await get({ text: `${'fuck '.repeat(50)}end`, userID: 'user-44' });
    const [e] = await t.store.events.listEvents('p', { kind: 'profanity', userId: 'user-44' });
    assert.ok(e);
    assert.equal([...e.subject].length, 100);
    assert.ok(e.subject.startsWith('f**k f**k'));
    assert.ok(e.subject.endsWith('…'));
  });

  it('stores the text nowhere in full', async () => {
    const marker = 'Quokkamarker7731 is a shitty bastard';
    await get({ text: marker, userID: 'user-45', listBadWords: 'yes' });
    await t.recorder.flush();
    const files = readdirSync(t.dir).filter((f) => !f.endsWith('.json'));
    for (const f of files) {
      const bytes = readFileSync(join(t.dir, f));
      assert.equal(bytes.indexOf(Buffer.from(marker)), -1, `${f} holds the full text`);
      assert.equal(bytes.indexOf(Buffer.from('shitty bastard')), -1, `${f} holds the flagged words`);
    }
  });
});
