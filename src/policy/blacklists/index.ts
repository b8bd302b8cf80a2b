/**
 * An account's blacklists in memory: one Set of normalised values per type, an IpSet for `ip`.
 * Built from the stored entries (already normalised by normaliseEntry) and asked about the probes
 * of each scored subject; probes are normalised here, entries are not re-normalised.
 */
import { BLACKLIST_TYPES, type BlacklistType, type ListProbe } from '../types.ts';
import { IpSet } from './ip-set.ts';
import { probeKeys } from './normalise.ts';

/** A Map rather than a Record: a probe type from bad input (`__proto__`) finds nothing, not a prototype. */
type KeyedSets = ReadonlyMap<BlacklistType, ReadonlySet<string>>;

function emptySets(): Map<BlacklistType, Set<string>> {
  return new Map(BLACKLIST_TYPES.filter((t) => t !== 'ip').map((t) => [t, new Set<string>()]));
}

export class BlacklistIndex {
  static readonly EMPTY: BlacklistIndex = new BlacklistIndex(IpSet.EMPTY, emptySets(), 0);

  private constructor(
    private readonly ips: IpSet,
    private readonly sets: KeyedSets,
    /** Distinct entries held (ip entries as accepted by IpSet.build). */
    readonly size: number,
  ) {}

  /** Builds the index from stored (type, normalised value) pairs; unknown types and bad ip rows are skipped. */
  static build(pairs: Iterable<readonly [BlacklistType, string]>): BlacklistIndex {
    const sets = emptySets();
    const ipValues: string[] = [];
    for (const [type, value] of pairs) {
      if (type === 'ip') ipValues.push(value);
      else sets.get(type)?.add(value);
    }
    const ips = IpSet.build(ipValues);
    let size = ips.size;
    for (const set of sets.values()) size += set.size;
    return size === 0 ? BlacklistIndex.EMPTY : new BlacklistIndex(ips, sets, size);
  }

  /** True when the probe's value (in the caller's spelling) is on the list of its type. Never throws. */
  has(probe: ListProbe): boolean {
    if (probe.type === 'ip') return this.ips.has(probe.value);
    const set = this.sets.get(probe.type);
    // Most accounts list few types: skip normalising a probe no entry could match.
    if (set === undefined || set.size === 0) return false;
    for (const key of probeKeys(probe)) if (set.has(key)) return true;
    return false;
  }

  /** The probes that matched, in the order given. */
  hits(probes: readonly ListProbe[]): ListProbe[] {
    if (this.size === 0) return [];
    return probes.filter((p) => this.has(p));
  }
}
