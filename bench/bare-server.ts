// The baseline: a bare Fastify JSON route in its own process, like the real server. It answers the
// body file it is given (the same bytes Vigil answers), so the ratio measures Vigil's work, not
// the cost of a larger payload on the socket and in the load generator.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 18081);
const bodyFile = process.argv[3];
const body = bodyFile ? readFileSync(bodyFile, 'utf8') : JSON.stringify({ data: { hello: 'world' }, status: 'success', executionTime: 0 });
const app = Fastify({ logger: false });
app.get('/bare', (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
// POST benches (payment, feedback): the JSON body is parsed by Fastify, as Vigil reads it, then the same bytes are answered.
app.post('/bare', (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
// bench/paced-ceiling.ts: the same route plus N rounds of pure computation (no allocation, no I/O, no garbage), so
// a request costs a chosen amount of CPU on the serving thread and nothing else; with M, it also hands M rounds to a
// worker thread (not awaited), as a server whose other threads work for each request (writers, checkpoints, GC).
let helper: Worker | undefined;
app.post('/burn', (req, reply) => {
  const { n, m } = req.query as { n?: string; m?: string };
  if (Number(m ?? 0) > 0) {
    helper ??= new Worker(`${burn.toString()}\nrequire('node:worker_threads').parentPort.on('message', (m) => { if (burn(m) === 0.5) console.log(m); });`, { eval: true });
    helper.postMessage(Number(m));
  }
  reply.header('x-burn', String(burn(Number(n ?? 0))));
  return reply.header('content-type', 'application/json; charset=utf-8').send(body);
});

/** xorshift32 N times: a few integer instructions a round, kept live by its result. */
function burn(n: number): number {
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}
await app.listen({ port, host: '127.0.0.1' });
// A clean exit on SIGTERM, so a CPU profile (BENCH_PROFILE_DIR) is written for this process too.
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
