import type { BlacklistEntry, Store } from '../store/ports.ts';
import { normaliseEntry } from './blacklists/normalise.ts';
import { PolicyError } from './errors.ts';
import type { PolicySnapshots } from './snapshots.ts';
import { BLACKLIST_TYPES, type BlacklistType } from './types.ts';

/** At most this many values in one add/remove call (an import of a larger file is sent in batches). */
export const MAX_VALUES_PER_CALL = 1_000_000;
const SHOWN_ERRORS = 20;

export interface ListChange {
  type: BlacklistType;
  /** Values sent. */
  received: number;
  /** Entries that were new (add) or existed and were removed (remove). */
  changed: number;
  /** Values skipped as invalid (only with `skipInvalid`), with why; at most 20 are listed. */
  skipped: number;
  errors: Array<{ value: string; error: string }>;
}

export function blacklistType(raw: unknown): BlacklistType {
  if (typeof raw === 'string' && (BLACKLIST_TYPES as readonly string[]).includes(raw)) return raw as BlacklistType;
  throw new PolicyError('invalid', `unknown blacklist type ${JSON.stringify(raw)}; types: ${BLACKLIST_TYPES.join(', ')}`);
}

/** Blacklists of an account: bulk add, remove and import, for the admin API, CLI and seed. */
export class ListsService {
  constructor(
    private readonly store: Store,
    private readonly snapshots: PolicySnapshots,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Adds values after normalising them. One invalid value refuses the whole call (nothing is half
   * saved) unless `skipInvalid` is set, as for a large imported file with a few bad lines.
   */
  async add(accountId: string, type: BlacklistType, values: readonly string[], opts: { note?: string | null; skipInvalid?: boolean } = {}): Promise<ListChange> {
    const { valid, errors } = this.normalise(type, values, opts.skipInvalid ?? false);
    const at = this.clock().toISOString();
    const entries: BlacklistEntry[] = valid.map((value) => ({ type, value, note: opts.note ?? null, createdAt: at }));
    const changed = entries.length > 0 ? await this.store.policy.addBlacklist(accountId, entries) : 0;
    if (changed > 0) this.snapshots.invalidate(accountId);
    return { type, received: values.length, changed, skipped: errors.length, errors: errors.slice(0, SHOWN_ERRORS) };
  }

  async remove(accountId: string, type: BlacklistType, values: readonly string[]): Promise<ListChange> {
    const { valid, errors } = this.normalise(type, values, false);
    const changed = valid.length > 0 ? await this.store.policy.removeBlacklist(accountId, type, valid) : 0;
    if (changed > 0) this.snapshots.invalidate(accountId);
    return { type, received: values.length, changed, skipped: errors.length, errors };
  }

  /** A text file's lines as values: blank lines and `#` comments are skipped. */
  static linesOf(text: string): string[] {
    return text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
  }

  list(accountId: string, opts: { type?: BlacklistType; limit?: number; after?: { type: BlacklistType; value: string } }): Promise<BlacklistEntry[]> {
    return this.store.policy.listBlacklist(accountId, opts);
  }

  counts(accountId: string): Promise<Partial<Record<BlacklistType, number>>> {
    return this.store.policy.countBlacklist(accountId);
  }

  private normalise(type: BlacklistType, values: readonly string[], skipInvalid: boolean): { valid: string[]; errors: Array<{ value: string; error: string }> } {
    if (values.length > MAX_VALUES_PER_CALL) throw new PolicyError('invalid', `at most ${MAX_VALUES_PER_CALL} values per call; send the rest in another call`);
    const valid = new Set<string>();
    const errors: Array<{ value: string; error: string }> = [];
    for (const raw of values) {
      const result = typeof raw === 'string' ? normaliseEntry(type, raw) : { ok: false as const, error: 'values must be strings' };
      if (result.ok) valid.add(result.value);
      else errors.push({ value: String(raw).slice(0, 100), error: result.error });
    }
    if (errors.length > 0 && !skipInvalid) {
      const shown = errors.slice(0, SHOWN_ERRORS).map((e) => `${JSON.stringify(e.value)}: ${e.error}`).join('; ');
      throw new PolicyError('invalid', `${errors.length} of ${values.length} ${type} values are invalid, nothing was saved: ${shown}`);
    }
    return { valid: [...valid], errors };
  }
}
