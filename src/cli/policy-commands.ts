import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { Config } from '../config.ts';
import { AccountService } from '../accounts/service.ts';
import { resolveSecret } from '../accounts/secret.ts';
import { BacktestLabeller } from '../learning/backtest-labels.ts';
import { createPolicy, type Policy } from '../policy/index.ts';
import { PolicyError } from '../policy/errors.ts';
import { eventsCsv } from '../policy/events/export.ts';
import { blacklistType, ListsService } from '../policy/lists-service.ts';
import { EVENT_KINDS, type EventKind } from '../policy/types.ts';
import { openStore } from '../store/index.ts';
import type { EventFilter, Store } from '../store/ports.ts';

export { POLICY_USAGE } from './policy-usage.ts';

const print = (v: unknown): void => void process.stdout.write(JSON.stringify(v, null, 2) + '\n');

/** Opens the store and the policy services (no delivery worker, no decision log) for one command. */
async function withPolicy<T>(config: Readonly<Config>, account: string, fn: (policy: Policy, store: Store) => Promise<T>): Promise<T> {
  const { secret } = resolveSecret(config.secretKey, config.dataDir);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  const policy = createPolicy({ store, secret, logger: pino({ level: 'silent' }), clock: () => new Date(), refreshMs: 1000, decisionLogDays: 0, logDecision: undefined, worker: false, webhookTargets: config.webhookAllowPrivate });
  // Backtests count the feedback labels stored here, as the server's do.
  policy.rules.useLabels(new BacktestLabeller(store, () => new Date()));
  try {
    await new AccountService(store, secret).getAccount(account);
    return await fn(policy, store);
  } finally {
    await policy.close();
    await store.close();
  }
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyError('invalid', `${path} cannot be read: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PolicyError('invalid', `${path} is not valid JSON: ${(e as Error).message}`);
  }
}

function ruleRef(values: { id?: string | undefined; rule?: string | undefined }): { ruleId?: string; rule?: unknown } {
  if (values.id !== undefined) return { ruleId: values.id };
  if (values.rule !== undefined) return { rule: readJson(values.rule) };
  throw new PolicyError('invalid', 'give --id RULE_ID or --rule FILE');
}

function eventFilter(values: { kind?: string | undefined; from?: string | undefined; to?: string | undefined; user?: string | undefined; limit?: string | undefined }): EventFilter {
  const filter: EventFilter = { limit: values.limit === undefined ? 100 : Number(values.limit) };
  if (!Number.isInteger(filter.limit) || (filter.limit ?? 0) < 1 || (filter.limit ?? 0) > 1000) throw new PolicyError('invalid', '--limit takes 1 to 1000');
  if (values.kind !== undefined) {
    if (!(EVENT_KINDS as readonly string[]).includes(values.kind)) throw new PolicyError('invalid', `--kind takes one of ${EVENT_KINDS.join(', ')}`);
    filter.kind = values.kind as EventKind;
  }
  for (const [name, v] of [['from', values.from], ['to', values.to]] as const) {
    if (v !== undefined && Number.isNaN(Date.parse(v))) throw new PolicyError('invalid', `--${name} takes an ISO timestamp`);
  }
  if (values.from !== undefined) filter.from = new Date(values.from).toISOString();
  if (values.to !== undefined) filter.to = new Date(values.to).toISOString();
  if (values.user !== undefined) filter.userId = values.user;
  return filter;
}

/** Runs `vigil rules|blacklist|webhooks|events ...`; returns the exit code, or null for a usage error. */
export async function policyCommand(config: Readonly<Config>, cmd: string, sub: string | undefined, rest: string[]): Promise<number | null> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      id: { type: 'string' }, rule: { type: 'string' }, sample: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' },
      type: { type: 'string' }, limit: { type: 'string' }, 'skip-invalid': { type: 'boolean', default: false }, secret: { type: 'string' },
      kind: { type: 'string' }, user: { type: 'string' }, webhook: { type: 'string' },
    },
  });
  const [account, ...args] = positionals;
  if (!account) return null;
  const run = <T>(fn: (policy: Policy, store: Store) => Promise<T>): Promise<T> => withPolicy(config, account, fn);

  switch (`${cmd} ${sub ?? ''}`) {
    case 'rules list':
      print(await run((p) => p.rules.list(account)));
      return 0;
    case 'rules add': {
      if (!args[0]) return null;
      const body = readJson(args[0]);
      const drafts = Array.isArray(body) ? body : [body];
      print(await run(async (p) => {
        const saved = [];
        for (const draft of drafts) saved.push(await p.rules.create(account, draft));
        return saved;
      }));
      return 0;
    }
    case 'rules enable':
    case 'rules disable': {
      const id = args[0];
      if (!id) return null;
      print(await run((p) => p.rules.setEnabled(account, id, sub === 'enable')));
      return 0;
    }
    case 'rules delete': {
      const id = args[0];
      if (!id) return null;
      await run((p) => p.rules.remove(account, id));
      print({ id, deleted: true });
      return 0;
    }
    case 'rules test': {
      if (!values.sample) throw new PolicyError('invalid', 'give --sample FILE with {"input": {...}, "result": {...}}');
      const sample = readJson(values.sample) as { input?: Record<string, unknown>; result?: Record<string, unknown> };
      print(await run((p) => p.rules.test(account, { ...ruleRef(values), input: sample.input ?? {}, result: sample.result ?? {} })));
      return 0;
    }
    case 'rules backtest': {
      const { from, to } = eventFilter(values);
      if (!from || !to) throw new PolicyError('invalid', 'give --from ISO and --to ISO');
      print(await run((p) => p.rules.backtest(account, { ...ruleRef(values), from, to })));
      return 0;
    }
    case 'blacklist list': {
      const limit = values.limit === undefined ? 1000 : Number(values.limit);
      print(await run((p) => p.lists.list(account, { limit, ...(values.type ? { type: blacklistType(values.type) } : {}) })));
      return 0;
    }
    case 'blacklist counts':
      print(await run((p) => p.lists.counts(account)));
      return 0;
    case 'blacklist add':
    case 'blacklist remove': {
      const [type, ...list] = args;
      if (!type || list.length === 0) return null;
      const t = blacklistType(type);
      print(await run((p) => (sub === 'add' ? p.lists.add(account, t, list, { note: 'cli' }) : p.lists.remove(account, t, list))));
      return 0;
    }
    case 'blacklist import': {
      const [type, file] = args;
      if (!type || !file) return null;
      const t = blacklistType(type);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        throw new PolicyError('invalid', `${file} cannot be read: ${(e as Error).message}`);
      }
      print(await run((p) => p.lists.add(account, t, ListsService.linesOf(text), { note: `import:${file.split(/[\\/]/).pop() ?? file}`, skipInvalid: values['skip-invalid'] })));
      return 0;
    }
    case 'webhooks list':
      print(await run((p) => p.webhooks.list(account)));
      return 0;
    case 'webhooks add': {
      const url = args[0];
      if (!url) return null;
      print(await run((p) => p.webhooks.add(account, url, values.secret)));
      return 0;
    }
    case 'webhooks remove': {
      const id = args[0];
      if (!id) return null;
      await run((p) => p.webhooks.remove(account, id));
      print({ id, deleted: true });
      return 0;
    }
    case 'webhooks rotate': {
      const id = args[0];
      if (!id) return null;
      print(await run((p) => p.webhooks.rotateSecret(account, id)));
      return 0;
    }
    case 'events list':
      print(await run((_p, store) => store.events.listEvents(account, eventFilter(values))));
      return 0;
    case 'events export': {
      const filter = { ...eventFilter(values), limit: 1000 };
      const csv = await run(async (_p, store) => {
        const all = [];
        for (;;) {
          const page = await store.events.listEvents(account, filter);
          all.push(...page);
          const last = page.at(-1);
          if (!last || page.length < 1000) break;
          filter.before = last.eventId;
        }
        return eventsCsv(all);
      });
      process.stdout.write(csv);
      return 0;
    }
    case 'events redeliver': {
      const id = Number(args[0]);
      if (!Number.isSafeInteger(id) || id < 1) return null;
      print(await run((p) => p.webhooks.redeliver(account, id, values.webhook)));
      return 0;
    }
    default:
      return null;
  }
}
