import type { FastifyInstance } from 'fastify';
import { EVENT_KINDS } from '../../policy/types.ts';
import type { DayCount } from '../../store/console-port.ts';
import { page } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';
import { countBars, stackedColumns, type Series } from '../svg.ts';

const DAYS = 30;
const RULE_SAMPLE = 5000;

/** The UTC days of the window, oldest first. */
function daysEnding(now: Date, n: number): string[] {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: n }, (_, i) => new Date(end - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Day counts as one series per key (in `keys` order, keys with no count left out). */
function seriesOf(days: readonly string[], rows: readonly DayCount[], keys?: readonly string[]): Series[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const by = new Map<string, number[]>();
  for (const r of rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    let values = by.get(r.key);
    if (!values) by.set(r.key, (values = new Array<number>(days.length).fill(0)));
    values[i]! += r.n;
  }
  const order = keys ?? [...by.keys()].sort();
  return order.filter((k) => by.has(k)).map((k) => ({ name: k, values: by.get(k)! }));
}

export function registerOverview(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/a/:account/overview', page(deps, async (_req, _reply, ctx) => {
    const account = ctx.account!;
    const days = daysEnding(ctx.now, DAYS);
    const from = `${days[0]}T00:00:00.000Z`;
    const to = new Date(Date.parse(`${days.at(-1)}T00:00:00Z`) + 86_400_000).toISOString();
    const month = ctx.now.toISOString().slice(0, 7);
    const [usage, plan, monthTotal, events, labels, bands, rules] = await Promise.all([
      deps.store.usage.list(account.id, days[0]!, days.at(-1)!),
      deps.store.accounts.getPlan(account.planId),
      deps.store.usage.monthTotal(account.id, month),
      deps.store.console.eventsPerDay(account.id, from, to),
      deps.store.console.labelsPerDay(account.id, from, to),
      deps.store.console.scoreBands(account.id, from, to),
      deps.store.console.topRules(account.id, from, to, RULE_SAMPLE),
    ]);
    const calls = seriesOf(days, usage.map((u) => ({ day: u.day, key: u.method, n: u.count })));
    const quota = plan?.monthlyQuota ?? null;
    const daysInMonth = new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth() + 1, 0)).getUTCDate();
    const bandTotal = bands.low + bands.medium + bands.high;
    const share = (n: number) => (bandTotal === 0 ? 0 : Math.round((n / bandTotal) * 1000) / 10);
    return layout(ctx, {
      title: 'Overview',
      active: 'overview',
      body: html`<p class="muted">Last ${DAYS} days (UTC). Plan <strong>${account.planId}</strong>: ${monthTotal.toLocaleString('en')} calls this month${quota !== null ? ` of ${quota.toLocaleString('en')} (${Math.round((monthTotal / quota) * 1000) / 10} %)` : ', no quota'}.</p>
<div class="cards charts">
<section class="card"><h2>Calls per day and method</h2>${stackedColumns('Calls per day by method', days, calls, quota !== null ? { limit: { value: quota / daysInMonth, label: 'daily share of quota' } } : {})}</section>
<section class="card"><h2>Events per day and kind</h2>${stackedColumns('Events per day by kind', days, seriesOf(days, events, EVENT_KINDS))}</section>
<section class="card"><h2>Payments per score band</h2>${countBars('Share of payments in each score band (%)', [
  { label: `low, below 30 (${bands.low})`, value: share(bands.low) },
  { label: `medium, 30-60 (${bands.medium})`, value: share(bands.medium) },
  { label: `high, 60+ (${bands.high})`, value: share(bands.high) },
], ' %')}</section>
<section class="card"><h2>Labels over time</h2><p class="muted">Identities labelled fraud or legit each day (by feedback, events and payment outcomes).</p>${stackedColumns('Fraud and legit labels per day', days, seriesOf(days, labels, ['fraud', 'legit']))}</section>
<section class="card"><h2>Rules that fired most</h2>${countBars(`Rules fired in the latest ${RULE_SAMPLE} payments`, rules.map((r) => ({ label: r.rule, value: r.n })))}</section>
</div>`,
    });
  }));
}
