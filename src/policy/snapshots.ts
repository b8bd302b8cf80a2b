import type { Logger } from 'pino';
import type { Store } from '../store/ports.ts';
import { BlacklistIndex } from './blacklists/index.ts';
import { compileRule, type CompiledRule } from './rules/evaluate.ts';
import { ruleOrder } from './rules/decide.ts';
import { RuleIndex } from './rules/rule-index.ts';
import type { RuleGroup } from './types.ts';

/** One account's rules (compiled, enabled only, indexed per group, in id order) and lists (indexed), at one version. */
export interface PolicySnapshot {
  readonly version: number;
  readonly rules: ReadonlyMap<RuleGroup, RuleIndex>;
  readonly lists: BlacklistIndex;
}

interface Entry {
  snapshot: PolicySnapshot | undefined;
  /** When the stored version was last compared with the snapshot's (ms since epoch). */
  checkedAt: number;
  /** A change made through this instance: the next request must wait for the new snapshot. */
  stale: boolean;
  loading: Promise<PolicySnapshot> | undefined;
}

/**
 * In-memory copies of each account's policy, so the request path never queries rules or lists.
 * Changes made through this instance invalidate the copy at once (the very next answer sees them).
 * Changes made by another instance arrive as notifications (`changed`, from the store's LISTEN): the
 * copy is reloaded at once in the background, so an idle instance is fresh before its next request.
 * Behind that, a version read at most every `refreshMs` catches what a lost notification missed, and
 * a request that finds a newer version waits for the new copy rather than answer from the old one:
 * no answer uses a copy that was known stale for longer than `refreshMs` (docs/policy.md).
 */
export class PolicySnapshots {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly refreshMs = 1000,
  ) {}

  /** The account's current policy; waits only for a first load or a local change. */
  async get(accountId: string): Promise<PolicySnapshot> {
    const entry = this.#entries.get(accountId);
    if (!entry?.snapshot || entry.stale) return this.load(accountId);
    const now = Date.now();
    if (now - entry.checkedAt >= this.refreshMs && !entry.loading) {
      entry.checkedAt = now;
      const version = await this.store.policy.version(accountId);
      if (version !== entry.snapshot.version) return this.load(accountId);
    }
    // A reload started by a notification: wait for it rather than answer from the copy it replaces.
    if (entry.loading) return entry.loading;
    return entry.snapshot;
  }

  /** Call after a change made through this instance. */
  invalidate(accountId: string): void {
    const entry = this.#entries.get(accountId);
    if (entry) entry.stale = true;
  }

  /**
   * A change committed by some instance (a notification): the account's copy, if this instance holds one,
   * is reloaded now. `null` (notifications may have been missed): every copy's version is read again at
   * its next use.
   */
  changed(accountId: string | null): void {
    if (accountId === null) {
      for (const entry of this.#entries.values()) entry.checkedAt = 0;
      return;
    }
    const entry = this.#entries.get(accountId);
    if (!entry?.snapshot) return;
    // A change made through this instance is announced to it too, after its own reload: compare the version
    // first, so a million-entry list is not loaded twice.
    this.store.policy.version(accountId).then((version) => {
      if (version === entry.snapshot?.version) return undefined;
      entry.stale = true;
      return this.load(accountId);
    }).catch((err: unknown) => {
      entry.checkedAt = 0;
      this.logger.error({ err, accountId }, 'policy reload after a change notification failed; the next request reads the version again');
    });
  }

  clear(): void {
    this.#entries.clear();
  }

  private load(accountId: string): Promise<PolicySnapshot> {
    let entry = this.#entries.get(accountId);
    if (!entry) {
      entry = { snapshot: undefined, checkedAt: 0, stale: false, loading: undefined };
      this.#entries.set(accountId, entry);
    }
    // A local change during a load must not be lost: the load in flight may have read the old state.
    if (entry.loading && !entry.stale) return entry.loading;
    const target = entry;
    target.stale = false;
    const loading = this.read(accountId).then(
      (snapshot) => {
        if (target.loading === loading) {
          target.snapshot = snapshot;
          target.checkedAt = Date.now();
          target.loading = undefined;
        }
        return snapshot;
      },
      (err: unknown) => {
        if (target.loading === loading) target.loading = undefined;
        throw err;
      },
    );
    target.loading = loading;
    return loading;
  }

  private async read(accountId: string): Promise<PolicySnapshot> {
    // The version is read first: a change racing the load leaves the snapshot older than the store, never newer.
    const version = await this.store.policy.version(accountId);
    const [rules, values] = await Promise.all([this.store.policy.listRules(accountId), this.store.policy.allBlacklistValues(accountId)]);
    const byGroup = new Map<RuleGroup, CompiledRule[]>();
    for (const rule of [...rules].sort((a, b) => ruleOrder(a.id, b.id))) {
      if (!rule.enabled) continue;
      const list = byGroup.get(rule.group) ?? [];
      list.push(compileRule(rule));
      byGroup.set(rule.group, list);
    }
    const indexed = new Map<RuleGroup, RuleIndex>();
    for (const [group, list] of byGroup) indexed.set(group, RuleIndex.build(list));
    return { version, rules: indexed, lists: BlacklistIndex.build(values) };
  }
}
