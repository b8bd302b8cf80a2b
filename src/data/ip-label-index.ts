/**
 * Which label (a cloud vendor, a hosting provider) an address falls under, for lists of
 * `cidr -> label`. IpSet answers only membership; this answers "whose range is it".
 *
 * Build: CIDRs are laminar (two of them are either disjoint or one holds the other), so one sweep
 * over them sorted by start (wider first on a tie) with a stack of open ranges cuts the address
 * space into disjoint segments, each labelled by the innermost (most specific) range holding it,
 * the way routing picks the longest prefix. Adjacent segments with the same label are merged.
 *
 * Lookup: the segments live in typed arrays (IPv4: one uint32 per bound; IPv6: four), and a
 * lookup is one binary search for the last segment starting at or below the address. No objects
 * per range, so 50,000 ranges cost well under 1 MB.
 */
import { parseNetwork, readAddress } from '../policy/blacklists/ip-parse.ts';
import { bigToWords, networkRange } from './ip-range.ts';

interface Range {
  start: bigint;
  end: bigint;
  label: number;
}

/** Disjoint labelled segments of laminar ranges (see the file comment), merged where adjacent. */
function segments(ranges: Range[]): Range[] {
  ranges.sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : x.end > y.end ? -1 : x.end < y.end ? 1 : 0));
  const out: Range[] = [];
  const emit = (start: bigint, end: bigint, label: number): void => {
    if (start > end) return;
    const last = out[out.length - 1];
    if (last !== undefined && last.label === label && last.end + 1n === start) last.end = end;
    else out.push({ start, end, label });
  };
  const stack: Range[] = [];
  let cursor = 0n;
  for (const r of ranges) {
    let top = stack[stack.length - 1];
    while (top !== undefined && top.end < r.start) {
      emit(cursor, top.end, top.label);
      if (cursor <= top.end) cursor = top.end + 1n;
      stack.pop();
      top = stack[stack.length - 1];
    }
    // The same range listed twice: the first label stays.
    if (top !== undefined && top.start === r.start && top.end === r.end) continue;
    if (top !== undefined) emit(cursor, r.start - 1n, top.label);
    cursor = r.start;
    stack.push(r);
  }
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    emit(cursor, top.end, top.label);
    if (cursor <= top.end) cursor = top.end + 1n;
  }
  return out;
}

const scratch = new Uint32Array(4);

function cmp6(a: Uint32Array, ai: number, b: Uint32Array): number {
  for (let k = 0; k < 4; k++) {
    const x = a[ai + k]!;
    const y = b[k]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export class IpLabelIndex {
  static readonly EMPTY = new IpLabelIndex([], new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), new Uint32Array(0), 0);

  private constructor(
    private readonly labels: readonly string[],
    private readonly v4Start: Uint32Array,
    private readonly v4End: Uint32Array,
    private readonly v4Label: Uint32Array,
    /** Four words per segment. */
    private readonly v6Start: Uint32Array,
    private readonly v6End: Uint32Array,
    private readonly v6Label: Uint32Array,
    /** Ranges accepted by build. */
    readonly size: number,
  ) {}

  /** From `[cidr, label]` pairs; pairs whose CIDR does not parse are skipped (the importer already counted them). */
  static build(entries: Iterable<readonly [string, string]>): IpLabelIndex {
    const labels: string[] = [];
    const labelId = new Map<string, number>();
    const r4: Range[] = [];
    const r6: Range[] = [];
    let size = 0;
    for (const [cidr, label] of entries) {
      const net = parseNetwork(cidr);
      if (net === null) continue;
      let id = labelId.get(label);
      if (id === undefined) {
        id = labels.length;
        labels.push(label);
        labelId.set(label, id);
      }
      const { family, start, end } = networkRange(net);
      (family === 4 ? r4 : r6).push({ start, end, label: id });
      size++;
    }
    if (size === 0) return IpLabelIndex.EMPTY;
    const s4 = segments(r4);
    const s6 = segments(r6);
    const v6Start = new Uint32Array(s6.length * 4);
    const v6End = new Uint32Array(s6.length * 4);
    s6.forEach((s, i) => {
      v6Start.set(bigToWords(s.start, 6), i * 4);
      v6End.set(bigToWords(s.end, 6), i * 4);
    });
    return new IpLabelIndex(
      labels,
      Uint32Array.from(s4, (s) => Number(s.start)),
      Uint32Array.from(s4, (s) => Number(s.end)),
      Uint32Array.from(s4, (s) => s.label),
      v6Start,
      v6End,
      Uint32Array.from(s6, (s) => s.label),
      size,
    );
  }

  /** Disjoint segments held, for diagnostics. */
  get segments(): { v4: number; v6: number } {
    return { v4: this.v4Start.length, v6: this.v6Label.length };
  }

  /** The label of the most specific range holding the address (any textual form), or null. */
  get(ip: string): string | null {
    if (this.size === 0 || ip.length > 64) return null;
    const family = readAddress(ip, scratch);
    if (family === 4) return this.get4(scratch[0]!);
    if (family === 6) return this.get6(scratch);
    return null;
  }

  private get4(x: number): string | null {
    let lo = 0;
    let hi = this.v4Start.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.v4Start[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && this.v4End[lo - 1]! >= x ? this.labels[this.v4Label[lo - 1]!]! : null;
  }

  private get6(x: Uint32Array): string | null {
    let lo = 0;
    let hi = this.v6Label.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp6(this.v6Start, mid * 4, x) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && cmp6(this.v6End, (lo - 1) * 4, x) >= 0 ? this.labels[this.v6Label[lo - 1]!]! : null;
  }
}
