import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { writeRendered } from '../../src/http/reply.ts';

/** A JSON text the way answers are written: JSON.stringify of many small results, some with a flag emoji. */
function answers(n: number, flag: boolean): string {
  const data: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) data[`192.0.2.${i}`] = { ip: `192.0.2.${i}`, city: i % 3 === 0 ? 'Zürich' : 'Berlin', flag: flag ? '🇩🇪' : 'DE', n: i };
  return JSON.stringify({ data, status: 'success' });
}

const BODIES: Record<string, string> = {
  'short-ascii': answers(3, false),
  'short-emoji': answers(3, true),
  'long-ascii': answers(500, false),
  'long-emoji': answers(900, true),
  // Both sides of the length from which bodies go as bytes (8,192 UTF-16 units), ending in a surrogate pair.
  'edge-below': `${'a'.repeat(8189)}🇩`,
  'edge-at': `${'a'.repeat(8190)}🇩`,
  empty: '',
};

describe('writeRendered', () => {
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    app = Fastify();
    app.get<{ Params: { name: string } }>('/b/:name', (req, reply) => writeRendered(reply, { contentType: 'application/json; charset=utf-8', body: BODIES[req.params.name]!, headers: { 'x-extra': 'yes' } }, 200));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => app.close());

  for (const [name, body] of Object.entries(BODIES)) {
    it(`${name} (${body.length} units): the same text, its exact UTF-8 length, status and headers`, async () => {
      const res = await fetch(`${base}/b/${name}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.equal(res.headers.get('x-extra'), 'yes');
      assert.equal(Number(res.headers.get('content-length')), Buffer.byteLength(body));
      assert.equal(bytes.length, Buffer.byteLength(body));
      assert.equal(bytes.toString('utf8'), body);
    });
  }

  it('a long answer with emoji really is longer in bytes than in units (the case the byte path must count right)', () => {
    const body = BODIES['long-emoji']!;
    assert.ok(body.length >= 8192);
    assert.ok(Buffer.byteLength(body) > body.length);
  });
});
