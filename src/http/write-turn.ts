/**
 * Answers are written in the check phase of the event loop turn that computed them, all together,
 * instead of one by one between the reads of the poll phase.
 *
 * Under load one poll phase hands over many requests. Writing each answer as soon as it is ready
 * interleaves socket writes with request parsing and engine work; grouping the writes after the
 * poll phase keeps each kind of work together (its code and data stay in the CPU caches) and lets
 * the clients' next requests arrive together too. On the 2-core bench machine a country answer
 * took about 100 µs of CPU before and about 62 µs after (docs/benchmarks.md).
 *
 * The wait is the rest of the current turn: microseconds when idle. So that heavy answers (a payment
 * scoring takes over a millisecond) never wait for many others, a group that has waited
 * MAX_WAIT_MS is written at once, by the answer that finds it so. One setImmediate serves a group.
 */
const MAX_WAIT_MS = 1;

let waiting: Array<() => void> = [];
let since = 0;

function release(): void {
  const ready = waiting;
  waiting = [];
  for (const resolve of ready) resolve();
}

/** Resolves in the check phase of the current turn, or at once with its group when that has waited MAX_WAIT_MS. */
export function writeTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) {
      since = performance.now();
      setImmediate(release);
    } else if (performance.now() - since >= MAX_WAIT_MS) {
      release();
    }
  });
}
