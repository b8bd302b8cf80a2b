import type { DisposableFacts } from './types.ts';

/**
 * Numbers of receive-SMS ("disposable") services and the blocks they sit in (docs/api-decisions.md
 * "Phone"). Numbers rotate: a number recorded within RECENT_DAYS before the request is disposable;
 * an older record only raises suspicion. A block is the number without its last three digits
 * (1,000 consecutive numbers), where such services buy their numbers in runs.
 */
export const RECENT_DAYS = 730;
/** Recently listed numbers in one block from which every number of the block counts as disposable. */
export const HOT_BLOCK = 5;
/** The same for VOIP numbers, which raise suspicion: one recent neighbour is enough. */
export const HOT_BLOCK_VOIP = 1;

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a YYYY-MM-DD date; NaN when it is not a real date. */
export function dayNumber(date: string): number {
  const m = DATE.exec(date);
  if (!m) return NaN;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === date ? ms / DAY_MS : NaN;
}

export class DisposableIndex {
  /** digits -> day number of its record. */
  readonly #numbers = new Map<string, number>();
  /** block -> day numbers of its listed numbers, newest first. */
  readonly #blocks = new Map<string, number[]>();

  static readonly EMPTY = new DisposableIndex([]);

  constructor(entries: Iterable<readonly [digits: string, date: string]>) {
    for (const [digits, date] of entries) {
      const day = dayNumber(date);
      if (Number.isNaN(day)) continue;
      this.#numbers.set(digits, day);
      const block = digits.slice(0, -3);
      const days = this.#blocks.get(block);
      if (days) days.push(day);
      else this.#blocks.set(block, [day]);
    }
    for (const days of this.#blocks.values()) days.sort((a, b) => b - a);
  }

  /** Parses the imported dataset's file: `digits<TAB>YYYY-MM-DD` per line. */
  static parse(content: string): DisposableIndex {
    const entries: Array<[string, string]> = [];
    for (const line of content.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) entries.push([line.slice(0, tab), line.slice(tab + 1)]);
    }
    return new DisposableIndex(entries);
  }

  get size(): number {
    return this.#numbers.size;
  }

  /** The record of `digits` (E.164 without `+`) and its block, judged against `now`. */
  facts(digits: string, now: Date): DisposableFacts {
    const cutoff = Math.floor(now.getTime() / DAY_MS) - RECENT_DAYS;
    const day = this.#numbers.get(digits);
    let blockRecent = 0;
    for (const d of this.#blocks.get(digits.slice(0, -3)) ?? []) {
      if (d < cutoff) break;
      blockRecent++;
    }
    return {
      listedOn: day === undefined ? null : new Date(day * DAY_MS).toISOString().slice(0, 10),
      recent: day !== undefined && day >= cutoff,
      blockRecent,
    };
  }
}
