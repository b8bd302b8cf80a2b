import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;
let allowed = false;

/**
 * Lets collectGarbage run: called by the CLI's data commands (a process of their own, also for scheduled
 * updates). A server that imports for its dashboard does not pause its requests for full collections.
 */
export function allowGarbageCollection(): void {
  allowed = true;
}

/**
 * A full garbage collection, for batch work between large steps (one dataset import and the next): V8 sets
 * the heap's next limit from what a full collection finds alive, so collecting when little is alive keeps
 * the next step's peak near its own needs. `--expose-gc` is turned on for this one function (V8's flag
 * read at a context's creation); where that fails, nothing is done.
 */
export function collectGarbage(): void {
  if (!allowed) return;
  if (gc === undefined) {
    try {
      const own = (globalThis as { gc?: () => void }).gc;
      if (typeof own === 'function') gc = own;
      else {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
        setFlagsFromString('--no-expose-gc');
      }
    } catch {
      gc = null;
    }
  }
  gc?.();
}
