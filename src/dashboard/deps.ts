import type { Logger } from 'pino';
import type { AccountService } from '../accounts/service.ts';
import type { Learning } from '../learning/index.ts';
import type { Policy } from '../policy/index.ts';
import type { Counters, Store } from '../store/ports.ts';
import type { ConsoleSessions } from './sessions.ts';
import type { DataUpdates } from './data-updates.ts';

/** What the console's pages call: the same services as the admin API and the feedback methods. */
export interface DashboardDeps {
  accounts: AccountService;
  store: Store;
  /** Failed sign-ins per client address (in-process, or Redis shared by every instance). */
  counters: Counters;
  policy: Pick<Policy, 'rules' | 'lists' | 'webhooks'>;
  learning: Learning;
  sessions: ConsoleSessions;
  adminToken: string | undefined;
  clock: () => Date;
  logger: Logger;
  /** Called after a change to accounts, plans or keys (clears the API's key cache), as the admin API does. */
  onAccountsChange: () => void;
  /** DATA_DIR, where imported datasets and their manifests live. */
  dataDir: string | undefined;
  /** Dataset updates operators start from the model and data page. */
  updates: DataUpdates;
}
