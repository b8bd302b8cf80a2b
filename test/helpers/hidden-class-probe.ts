/**
 * Run by test/http/hidden-classes.test.ts under `node --allow-natives-syntax`: builds the objects of two
 * /lookup/ip requests the way the pipeline does (context, answer, policy subject, decision record) and
 * prints, as JSON, whether each pair shares its hidden class (V8 map). Objects that get a map of their
 * own per request keep young objects alive through old-space maps and make every GC slower
 * (docs/benchmarks.md, 2026-11-24).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { loadCountryData } from '../../src/data/countries.ts';
import { loadIpData } from '../../src/data/ip-data.ts';
import { EndpointContext } from '../../src/http/register-endpoint.ts';
import { ipEngine, lookupIpEndpoint } from '../../src/http/routes/lookup-ip.ts';
import type { PolicyVerdict } from '../../src/policy/types.ts';
import type { Caller } from '../../src/http/context.ts';

// eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's natives syntax only parses in compiled source
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-maps-'));
const ip = loadIpData({ dataDir, network: false, networkTimeoutMs: 500, networkBudgetMs: 100, rdapAsnBootstrapFile: undefined, crawlerRangesFile: undefined }, { reloadMs: 0 });
try {
  const def = lookupIpEndpoint(ipEngine(ip.sources, loadCountryData()), () => ip.datasets);
  const deps = { clock: () => new Date(), baseUrl: () => 'http://localhost' };
  const verdict = (): PolicyVerdict => ({ blacklisted: false, whitelisted: false, listHits: [], rulesApplied: { total: 0, rules: [] } }) as unknown as PolicyVerdict;

  const request = (address: string, modules: string[]) => {
    const req = { query: { ip: address }, body: undefined, headers: {}, ip: '127.0.0.1' } as unknown as FastifyRequest;
    const ctx = new EndpointContext('lookup.ip', req, deps);
    ctx.options = { ...ctx.options, modules: new Set(modules) };
    ctx.caller = { account: { id: 'acct' } } as unknown as Caller;
    return ctx;
  };
  const run = async (address: string, modules: string[]) => {
    const ctx = request(address, modules);
    const answer = (await def.live(ctx)) as Record<string, unknown>;
    const [subject] = def.policy!.subjects(answer, { ip: address }, ctx.notes);
    subject!.apply(verdict());
    return { ctx, answer, security: answer.security, view: subject!.result, logged: subject!.logged!() };
  };
  // Per module set: enough requests for V8 to settle its field representations, then two to compare.
  const addresses = ['8.8.8.8', '1.1.1.1', '81.2.69.160', '2606:4700:4700::1111', '193.0.6.139', '9.9.9.9'];
  const out: Record<string, boolean> = {};
  for (const [name, modules] of [['all', ['security', 'location', 'currency', 'timezone']], ['none', []]] as const) {
    for (let i = 0; i < 200; i++) await run(addresses[i % addresses.length]!, [...modules]);
    const a = await run('8.8.4.4', [...modules]);
    const b = await run('81.2.69.142', [...modules]);
    for (const k of ['ctx', 'answer', 'view', 'logged'] as const) out[`${name}.${k}`] = sameMap(a[k], b[k]);
    if (name === 'all') out['all.security'] = sameMap(a.security, b.security);
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  ip.close();
  rmSync(dataDir, { recursive: true, force: true });
}
