import type { FloodHit } from './ports.ts';

/**
 * An account's flood key (counterKeys.flood): the current window, its count and the key's generation. The Redis
 * counters keep it as a hash with the same fields and the same steps in one script (redis/redis-counters.ts).
 */
export interface FloodState {
  /** Generation: set when the key is created, never changed after. */
  g: string;
  /** The window the key was created in (-1 once the plan's window length changed). */
  c: number;
  /** The current window, its length and its count. */
  w: number;
  s: number;
  n: number;
  /** 1 once an instance that knew an earlier generation has seen this one (the loss was handled). */
  f: 0 | 1;
}

/** One call: the state after it (the caller stores it and refreshes the key's TTL). */
export function floodStep(state: FloodState | undefined, hit: FloodHit): FloodState {
  const next: FloodState = state ? { ...state } : { g: hit.newGeneration, c: hit.window, w: hit.window, s: hit.windowSeconds, n: 0, f: 0 };
  if (next.s !== hit.windowSeconds) Object.assign(next, { c: -1, w: hit.window, s: hit.windowSeconds, n: 0 });
  // A larger window number starts the window; a smaller one (a clock behind the others) counts in the current one.
  else if (hit.window > next.w) Object.assign(next, { w: hit.window, n: 0 });
  next.n += 1;
  if (hit.knownGeneration !== null && hit.knownGeneration !== next.g && next.f === 0) {
    next.f = 1;
    // Created again in this window: the calls counted before the loss are unknown, so the window is full.
    if (next.c === next.w && next.n <= hit.limit) next.n = hit.limit + 1;
  }
  return next;
}
