import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import { verifySignature } from '../../src/policy/webhooks/sign.ts';

/**
 * A real webhook receiver on 127.0.0.1 that records the `event_id` of every delivery it answered 200, in arrival
 * order. With `hold`, requests are kept unanswered (not recorded) until release(); a held request whose
 * connection closes (its sender was killed) is dropped. Once `secret` is set, each delivery's signature is checked.
 */
export interface EventReceiver {
  url: string;
  /** Deliveries answered 200, in order. */
  ids: number[];
  /** Every request that arrived, answered or not (for waiting on a held one). */
  arrived: number[];
  /** The webhook's secret (set once the webhook is added): each delivery's signature is then checked. */
  secret: string | undefined;
  /** Deliveries whose X-Webhook-Signature did not verify under `secret` (always 0 without one). */
  badSignatures: number;
  /** Answers the held requests and every later one. */
  release(): void;
  /** Waits (up to `withinMs`) for `count` deliveries, a little longer for strays, then asserts once each, in event order. */
  expectOnceInOrder(count: number, withinMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startEventReceiver(options: { hold?: boolean } = {}): Promise<EventReceiver> {
  let holding = options.hold ?? false;
  const held: Array<{ res: ServerResponse; id: number }> = [];
  const receiver: Omit<EventReceiver, 'url' | 'expectOnceInOrder' | 'close' | 'release'> = { ids: [], arrived: [], secret: undefined, badSignatures: 0 };
  const answer = (res: ServerResponse, id: number): void => {
    if (res.destroyed) return;
    res.writeHead(200).end(() => receiver.ids.push(id));
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const id = (JSON.parse(body) as { event_id: number }).event_id;
      receiver.arrived.push(id);
      if (receiver.secret !== undefined) {
        const header = req.headers['x-webhook-signature'];
        if (typeof header !== 'string' || !verifySignature(header, body, receiver.secret, 300, Math.floor(Date.now() / 1000))) receiver.badSignatures++;
      }
      if (holding) held.push({ res, id });
      else answer(res, id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const { ids } = receiver;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    release() {
      holding = false;
      for (const { res, id } of held.splice(0)) answer(res, id);
    },
    async expectOnceInOrder(count: number, withinMs: number) {
      const until = Date.now() + withinMs;
      while (ids.length < count && Date.now() < until) await sleep(25);
      await sleep(300); // a duplicate would arrive after the last expected delivery
      assert.equal(ids.length, count, `deliveries: ${ids.join(',')}`);
      assert.equal(new Set(ids).size, count, 'each event once');
      assert.deepEqual(ids, [...ids].sort((x, y) => x - y), 'in event order');
      assert.equal(receiver.badSignatures, 0, 'every delivery signed with the webhook secret');
    },
    close: () => new Promise<void>((resolve) => {
      for (const { res } of held.splice(0)) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}
