/** Attribution: NOTICE.md names every dataset and is served at /docs/licenses beside the API reference; the README carries MaxMind's sentence. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { DATASET_NAMES } from '../../src/data/import/index.ts';
import { makeTestApp, type TestApp } from '../helpers/harness.ts';
import { ROOT } from '../helpers/cli-runner.ts';

const GEOLITE2_SENTENCE = 'This product includes GeoLite2 Data created by MaxMind, available from';
const notice = readFileSync(`${ROOT}/NOTICE.md`, 'utf8');

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(() => t.close());

describe('/docs/licenses', () => {
  it('serves NOTICE.md as markdown without a key, and /docs keeps working', async () => {
    const res = await t.app.inject({ url: '/docs/licenses' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/markdown; charset=utf-8/);
    assert.equal(res.body, notice);
    assert.ok(res.body.includes(GEOLITE2_SENTENCE));
    assert.match(res.body, /GeoNames[\s\S]*Creative Commons Attribution 4\.0/);
    assert.match(res.body, /CC BY-SA 4\.0|Attribution-ShareAlike 4\.0/);
    const docs = await t.app.inject({ url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger-ui/);
    const openapi = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body) as { paths: Record<string, unknown> };
    assert.equal(openapi.paths['/docs/licenses'], undefined, 'not an API operation');
  });
});

describe('NOTICE.md and README', () => {
  it('NOTICE.md names every importable dataset and every CC BY licence of the shipped word lists', () => {
    for (const name of DATASET_NAMES) {
      const mentioned = notice.includes(`\`${name}\``) || (name.startsWith('geolite2-') && notice.includes(`geolite2-city|geolite2-asn`));
      assert.ok(mentioned, `${name} is missing from NOTICE.md`);
    }
    assert.match(notice, /naughty-words[\s\S]{0,200}CC BY 4\.0/);
  });
  it('the README has a "Data and licences" section with the GeoLite2 attribution and a link to NOTICE.md', () => {
    const readme = readFileSync(`${ROOT}/README.md`, 'utf8');
    const section = /## Data and licences\n([\s\S]*?)(\n## |$)/.exec(readme)?.[1] ?? '';
    assert.ok(section.includes(GEOLITE2_SENTENCE), section);
    assert.match(section, /\(NOTICE\.md\)/);
    assert.match(section, /\/docs\/licenses/);
  });
});
