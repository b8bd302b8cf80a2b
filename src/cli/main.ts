import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import type { AccountService } from '../accounts/service.ts';
import type { Store } from '../store/ports.ts';
import { POLICY_USAGE } from './policy-usage.ts';
import { DATA_USAGE, dataCommand } from './data-commands.ts';
import { commandUsage, isSubcommand } from './usage.ts';
import { vigilVersion } from '../version.ts';

// The server, the store drivers and the policy services are imported by the commands that use them: `vigil data
// import` (a process beside a running server) then loads neither Fastify nor the engines' data (about 70 MB).

const USAGE = `vigil: self-hosted fraud prevention API

Usage:
  vigil serve                                   start the HTTP API (same as npm start)
  vigil migrate                                 apply the store's pending migrations and exit (a deployment's migration step)
  vigil --version                               print the version
  vigil seed FILE                               load a seed file (idempotent)
  vigil plans list
  vigil accounts list
  vigil accounts create [--id ID] [--plan PLAN] [--expires ISO|never|none] [--host H]...
  vigil accounts disable ID
  vigil keys list ACCOUNT
  vigil keys create ACCOUNT [--test]            prints the new key once
  vigil keys revoke KEY_ID
${POLICY_USAGE}
${DATA_USAGE}

Configuration comes from the environment (DATA_DIR, DATABASE_URL, SECRET_KEY, ...): see README.`;

async function withAccounts<T>(config: Readonly<Config>, fn: (svc: AccountService, store: Store) => Promise<T>): Promise<T> {
  const [{ resolveSecret }, { openStore }, { AccountService }] = await Promise.all([import('../accounts/secret.ts'), import('../store/index.ts'), import('../accounts/service.ts')]);
  const { secret } = resolveSecret(config.secretKey, config.dataDir);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
  try {
    const svc = new AccountService(store, secret);
    await svc.ensureBuiltinPlans();
    return await fn(svc, store);
  } finally {
    await store.close();
  }
}

const print = (v: unknown): void => void process.stdout.write(JSON.stringify(v, null, 2) + '\n');

/** Runs one CLI command; returns the process exit code. */
export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const [cmd, sub, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  if (cmd === '--version' || cmd === '-v' || cmd === 'version') {
    process.stdout.write(`vigil ${vigilVersion()}\n`);
    return 0;
  }
  const config = loadConfig(env);
  switch (cmd) {
    case 'serve':
      await (await import('../server.ts')).serve(config);
      return -1; // keep running
    case 'migrate': {
      // Every start migrates too (under an advisory lock on PostgreSQL); this is the same step on its own.
      const { openStore } = await import('../store/index.ts');
      const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
      await store.close();
      print({ migrated: store.kind });
      return 0;
    }
    case 'seed': {
      if (!sub) return usageError(argv);
      let text: string;
      try {
        text = readFileSync(sub, 'utf8');
      } catch (e) {
        throw new Error(`seed file ${sub} cannot be read: ${(e as Error).message}`);
      }
      const [{ parseSeed }, { resolveSecret }, { applyPolicySeed, createPolicy }, { default: pino }] = await Promise.all([
        import('../accounts/seed.ts'), import('../accounts/secret.ts'), import('../policy/index.ts'), import('pino'),
      ]);
      const seed = parseSeed(text);
      print(
        await withAccounts(config, async (svc, store) => {
          const done = await svc.applySeed(seed);
          const { secret } = resolveSecret(config.secretKey, config.dataDir);
          const policy = createPolicy({ store, secret, logger: pino({ level: 'silent' }), clock: () => new Date(), refreshMs: 1000, decisionLogDays: 0, logDecision: undefined, worker: false, webhookTargets: config.webhookAllowPrivate });
          return { ...done, ...(await applyPolicySeed(seed, policy)) };
        }),
      );
      return 0;
    }
    case 'plans':
      if (sub !== 'list') break;
      print(await withAccounts(config, (svc) => svc.listPlans()));
      return 0;
    case 'accounts': {
      if (sub === 'list') {
        print(await withAccounts(config, (svc) => svc.listAccounts()));
        return 0;
      }
      if (sub === 'create') {
        const { values } = parseArgs({
          args: rest,
          options: { id: { type: 'string' }, plan: { type: 'string', default: 'premium' }, expires: { type: 'string' }, host: { type: 'string', multiple: true } },
        });
        const subscription = values.expires === undefined || values.expires === 'never' ? { expiresAt: null } : values.expires === 'none' ? null : { expiresAt: values.expires };
        print(await withAccounts(config, (svc) => svc.createAccount({ id: values.id, plan: values.plan ?? 'premium', subscription, authorizedHosts: values.host ?? [] })));
        return 0;
      }
      if (sub === 'disable' && rest[0]) {
        const id = rest[0];
        print(await withAccounts(config, (svc) => svc.disableAccount(id)));
        return 0;
      }
      break;
    }
    case 'keys': {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { test: { type: 'boolean', default: false } } });
      const target = positionals[0];
      if (!target) break;
      if (sub === 'create') {
        const r = await withAccounts(config, (svc) => svc.createKey(target, values.test ? 'test' : 'live'));
        print({ id: r.record.id, accountId: r.record.accountId, kind: r.record.kind, key: r.key });
        return 0;
      }
      if (sub === 'revoke') {
        await withAccounts(config, (svc) => svc.revokeKey(target));
        print({ id: target, revoked: true });
        return 0;
      }
      if (sub === 'list') {
        print(await withAccounts(config, async (svc) => (await svc.listKeys(target)).map(({ hash: _h, ...k }) => k)));
        return 0;
      }
      break;
    }
    case 'rules':
    case 'blacklist':
    case 'webhooks':
    case 'events': {
      const code = await (await import('./policy-commands.ts')).policyCommand(config, cmd, sub, rest);
      if (code !== null) return code;
      break;
    }
    case 'data': {
      const code = dataCommand(config, sub, rest);
      if (code !== null) return code;
      break;
    }
    default:
      break;
  }
  return usageError(argv);
}

/** A known command called wrongly gets its own usage; an unknown one the whole help. Exit code 2. */
function usageError(argv: readonly string[]): number {
  const [cmd = '', sub] = argv;
  const own = commandUsage(USAGE, cmd, sub);
  if (own === null) {
    process.stderr.write(`vigil: unknown command "${argv.join(' ')}"\n\n${USAGE}\n`);
  } else {
    const what = isSubcommand(USAGE, cmd, sub) ? `missing or extra arguments for "vigil ${cmd} ${sub}"` : sub === undefined ? `"vigil ${cmd}" needs a sub-command` : `unknown ${cmd} command "${sub}"`;
    process.stderr.write(`vigil: ${what}\n\n${own}\n`);
  }
  return 2;
}

/** Errors whose message is the whole story (an operator's mistake): printed without a stack even at LOG_LEVEL=debug. */
const KNOWN_ERRORS = new Set(['AccountsError', 'PolicyError', 'RuleError', 'WebhookError', 'PolicyConflictError', 'DatasetError']);

const isEntry = process.argv[1] !== undefined && /(cli[\\/]main\.[jt]s|bin[\\/]vigil(\.js)?)$/.test(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      if (code >= 0) process.exit(code);
    },
    (err: unknown) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
        // A bad option or stray argument is a usage error: the command's own usage (or the whole help).
        const [cmd = '', sub] = process.argv.slice(2);
        process.stderr.write(`vigil: ${(err as Error).message}\n\n${commandUsage(USAGE, cmd, sub) ?? USAGE}\n`);
        process.exit(2);
      }
      // By class name: the modules that define them are loaded only by the commands that throw them.
      const known = err instanceof ConfigError || (err instanceof Error && (KNOWN_ERRORS.has(err.constructor.name) || /^seed file/.test(err.message)));
      // Stack traces only on request: an operator needs the message (store unreachable, bad secret file).
      const verbose = process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace';
      const text = err instanceof Error ? (known || !verbose ? err.message : (err.stack ?? err.message)) : String(err);
      process.stderr.write(`vigil: ${text}\n`);
      process.exit(1);
    },
  );
}
