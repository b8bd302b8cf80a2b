import assert from 'node:assert/strict';
import { createServer } from 'node:http';

/** A real webhook receiver on 127.0.0.1 that records the `event_id` of every delivery, in arrival order. */
export interface EventReceiver {
  url: string;
  ids: number[];
  /** Waits (up to `withinMs`) for `count` deliveries, a little longer for strays, then asserts once each, in event order. */
  expectOnceInOrder(count: number, withinMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startEventReceiver(): Promise<EventReceiver> {
  const ids: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      ids.push((JSON.parse(body) as { event_id: number }).event_id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    url: `http://127.0.0.1:${port}/hook`,
    ids,
    async expectOnceInOrder(count, withinMs) {
      const until = Date.now() + withinMs;
      while (ids.length < count && Date.now() < until) await sleep(25);
      await sleep(300); // a duplicate would arrive after the last expected delivery
      assert.equal(ids.length, count, `deliveries: ${ids.join(',')}`);
      assert.equal(new Set(ids).size, count, 'each event once');
      assert.deepEqual(ids, [...ids].sort((x, y) => x - y), 'in event order');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
