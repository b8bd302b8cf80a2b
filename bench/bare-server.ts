// The baseline: a bare Fastify JSON route in its own process, like the real server. It answers the
// body file it is given (the same bytes Vigil answers), so the ratio measures Vigil's work, not
// the cost of a larger payload on the socket and in the load generator.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 18081);
const bodyFile = process.argv[3];
const body = bodyFile ? readFileSync(bodyFile, 'utf8') : JSON.stringify({ data: { hello: 'world' }, status: 'success', executionTime: 0 });
const app = Fastify({ logger: false });
app.get('/bare', (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
// POST benches (payment, feedback): the JSON body is parsed by Fastify, as Vigil reads it, then the same bytes are answered.
app.post('/bare', (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
await app.listen({ port, host: '127.0.0.1' });
// A clean exit on SIGTERM, so a CPU profile (BENCH_PROFILE_DIR) is written for this process too.
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
