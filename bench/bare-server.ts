// The baseline: a bare Fastify JSON route, run as its own process like the real server.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', () => ({ data: { hello: 'world' }, status: 'success', executionTime: 0 }));
const port = Number(process.argv[2] ?? 18081);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`ready ${port}\n`);
