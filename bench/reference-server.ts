/**
 * The least work an answer of each throughput goal needs, as a Fastify server in its own process, for
 * bench/ceiling.ts: how close to a bare route any implementation of the issue could come on this machine.
 *
 *   ip PORT       GET /ip?ip=: the GeoLite2 City and ASN records of the address (the bundled databases, the
 *                 `maxmind` reader with its cache) as JSON. No key, no threat lists, no modules, no policy,
 *                 no decision log: a lower bound for GET /lookup/ip.
 *   payment PORT DIR
 *                 POST /pay with `{data}` as the payment bench sends it: the keyed hashes of the identities
 *                 and the scoring row stored through Vigil's own SQLite store under DIR (written in groups a
 *                 few milliseconds after the answer, as the server writes them), then a small JSON answer.
 *                 No key, no engines, no rules, no velocity or history reads, no model, no decision log: a
 *                 lower bound for POST /scoring/payment.
 */
import Fastify from 'fastify';
import { paths as geolite2Paths } from 'geolite2';
import maxmind from 'maxmind';
import { IdentityHasher } from '../src/learning/identity-hash.ts';
import { normaliseIdentity } from '../src/learning/identity-values.ts';
import type { LabelType } from '../src/store/learning-ports.ts';
import { openStore } from '../src/store/index.ts';

const [mode, portArg, dir] = process.argv.slice(2);
const app = Fastify({ logger: false });
const json = 'application/json; charset=utf-8';

if (mode === 'ip') {
  const city = await maxmind.open(geolite2Paths.city ?? geolite2Paths['GeoLite2-City']!);
  const asn = await maxmind.open(geolite2Paths.asn ?? geolite2Paths['GeoLite2-ASN']!);
  app.get('/ip', (req, reply) => {
    const { ip } = req.query as { ip?: unknown };
    if (typeof ip !== 'string' || !maxmind.validate(ip)) return reply.header('content-type', json).send('{"status":"error","error":112}');
    return reply.header('content-type', json).send(JSON.stringify({ data: { ip, city: city.get(ip), asn: asn.get(ip) }, status: 'success' }));
  });
} else if (mode === 'payment' && dir) {
  const store = await openStore({ dataDir: dir, backgroundCheckpoint: { onFailure: (err) => console.error(err) } });
  const hasher = new IdentityHasher('reference-server-secret', 'reference-server-card-secret');
  const hash = (type: LabelType, value: unknown): string | null => {
    const normal = typeof value === 'string' ? normaliseIdentity(type, value) : null;
    return normal === null ? null : hasher.hash(type, normal);
  };
  app.post('/pay', async (req, reply) => {
    const d = (req.body as { data: Record<string, unknown> }).data;
    const card = typeof d.card_number === 'string' ? d.card_number : null;
    const email = typeof d.customer_email === 'string' ? d.customer_email : '';
    await store.scorings.insert({
      accountId: 'reference',
      transactionId: typeof d.transaction_id === 'string' ? d.transaction_id : null,
      scoredAt: new Date().toISOString(),
      identities: {
        customer: hash('customer_id', d.customer_id),
        user: null,
        email: hash('email', email),
        emailDomain: hash('email_domain', email),
        phone: hash('phone', d.customer_phone),
        ip: hash('ip', d.customer_ip),
        device: hash('device_id', d.customer_device_id),
        card: hash('card', card),
      },
      cardBin: card === null ? null : card.slice(0, 6),
      cardLast4: card === null ? null : card.slice(-4),
      location: hash('text', `location\u0000${String(d.customer_country)}\u0000${String(d.customer_city)}`),
      amount: typeof d.transaction_amount === 'number' ? d.transaction_amount : null,
      currency: typeof d.transaction_currency === 'string' ? d.transaction_currency : null,
      score: 0,
      rules: [],
      features: [],
      ruleSet: 'reference',
      dataVersions: {},
      outcome: null,
    });
    return reply.header('content-type', json).send('{"data":{"score":0,"rules":[],"rulesChecked":0,"rulesDetected":0,"custom_rules_applied":[]},"status":"success"}');
  });
} else {
  throw new Error('usage: reference-server.ts ip PORT | payment PORT DIR');
}
app.get('/healthz', (_req, reply) => reply.send('ok'));
await app.listen({ port: Number(portArg), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
