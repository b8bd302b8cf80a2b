/**
 * The rows of a stored `asn<TAB>field<TAB>field...` file, found by ASN without one object (or one
 * string) per row. The table keeps the file's text and, per row, the ASN and where its fields
 * start and end, in typed arrays: a lookup is a binary search plus a substring of the wanted field.
 *
 * Why not a Map of parsed records: the bgp.tools and asn2org tables have 120,000 and 104,000 rows,
 * and records of split strings cost about 40 MB of heap between them (every field a string object,
 * and V8's substrings of the file keep the whole file alive on top); this costs the file's text
 * plus 12 bytes a row (about 20 MB for both, most of it the text).
 */
export class AsnTable {
  static readonly EMPTY = new AsnTable('', new Uint32Array(0), new Uint32Array(0), new Uint32Array(0));

  private constructor(
    private readonly text: string,
    private readonly asns: Uint32Array,
    /** Offset of the first field after the ASN. */
    private readonly starts: Uint32Array,
    /** Offset of the row's end (its newline, or the end of the text). */
    private readonly ends: Uint32Array,
  ) {}

  /** Rows whose first field is not an ASN are skipped; on a repeated ASN the first row wins. */
  static parse(text: string): AsnTable {
    const asns: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    let sorted = true;
    for (let pos = 0; pos < text.length; ) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = text.length;
      const tab = text.indexOf('\t', pos);
      const asnEnd = tab < 0 || tab > end ? end : tab;
      const asn = Number(text.slice(pos, asnEnd));
      if (asnEnd > pos && Number.isInteger(asn) && asn > 0 && asn <= 0xffffffff) {
        if (asns.length > 0 && asn <= (asns[asns.length - 1] ?? 0)) sorted = false;
        asns.push(asn);
        starts.push(Math.min(asnEnd + 1, end));
        ends.push(end);
      }
      pos = end + 1;
    }
    if (asns.length === 0) return AsnTable.EMPTY;
    let order: number[] | null = null;
    if (!sorted) {
      // The importers write rows sorted and unique; a hand-made file is sorted here (stable, so the first row of an ASN stays first).
      order = asns.map((_, i) => i).sort((a, b) => (asns[a] ?? 0) - (asns[b] ?? 0));
    }
    const pick = (a: number[]): Uint32Array => Uint32Array.from(order === null ? a : order.map((i) => a[i] ?? 0));
    return new AsnTable(text, pick(asns), pick(starts), pick(ends));
  }

  get size(): number {
    return this.asns.length;
  }

  /** The row of an ASN (the first one, if repeated), or -1. */
  find(asn: number): number {
    let lo = 0;
    let hi = this.asns.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.asns[mid]! < asn) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.asns.length && this.asns[lo] === asn ? lo : -1;
  }

  /** Field k (0: the first after the ASN) of a row found by find(); '' when the row has fewer fields. */
  field(row: number, k: number): string {
    let start = this.starts[row]!;
    const end = this.ends[row]!;
    for (let i = 0; i < k; i++) {
      const tab = this.text.indexOf('\t', start);
      if (tab < 0 || tab >= end) return '';
      start = tab + 1;
    }
    const tab = this.text.indexOf('\t', start);
    return this.text.slice(start, tab < 0 || tab > end ? end : tab);
  }
}
