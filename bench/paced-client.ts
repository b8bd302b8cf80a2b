/**
 * The paced (open-loop) client of bench/lib.ts `paced()`, in a process of its own so that the
 * bench process's heap and timers do not add their pauses to the latencies it measures.
 * Usage: tsx bench/paced-client.ts RUN.json, where RUN.json is `{base, opts}`; prints the result as JSON.
 */
import { readFileSync } from 'node:fs';
import { pacedInProcess, type PacedOptions } from './lib.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: tsx bench/paced-client.ts RUN.json');
const { base, opts } = JSON.parse(readFileSync(file, 'utf8')) as { base: string; opts: PacedOptions };
process.stdout.write(JSON.stringify(await pacedInProcess(base, opts)));
