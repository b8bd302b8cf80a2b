import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { normaliseIdentity } from '../../learning/identity-values.ts';
import type { StoredScoring } from '../../store/learning-ports.ts';
import type { PaymentRow } from '../../store/console-port.ts';
import { page, UserError, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, query, type Html } from '../html.ts';
import { accountPath, csrfField, layout } from '../layout.ts';
import { riskClass } from './events.ts';

const PAGE = 50;
const Search = z.object({
  by: z.enum(['transaction', 'customer', 'email', 'card']).optional(),
  q: z.string().max(255).optional(),
  before: z.coerce.number().int().min(1).optional(),
});
const OutcomeForm = z.object({ transaction: z.string().min(1).max(255), outcome: z.enum(['fraud_confirmed', 'legit_confirmed']) });

const fromScoring = (s: StoredScoring): PaymentRow => ({
  id: s.id, transactionId: s.transactionId, scoredAt: s.scoredAt, cardBin: s.cardBin, cardLast4: s.cardLast4, amount: s.amount, currency: s.currency, score: s.score, rules: s.rules, outcome: s.outcome,
});

/** Scorings matching the search: by transaction id, by the keyed hash of a customer id or email, or by BIN (and last four). */
async function search(deps: DashboardDeps, account: string, by: string | undefined, q: string, before: number | undefined): Promise<PaymentRow[]> {
  if (!by || q === '') return deps.store.console.payments(account, { limit: PAGE, ...(before ? { before } : {}) });
  if (by === 'transaction') return (await deps.store.scorings.byTransaction(account, q)).map(fromScoring).reverse();
  if (by === 'card') {
    const m = /^(\d{6,8})(?:\D+(\d{4}))?$/.exec(q.replace(/\s+/g, ' ').trim()) ?? /^(\d{6,8})$/.exec(q.trim());
    if (!m) throw new UserError('Search a card as its BIN (6 to 8 digits), optionally followed by the last four: 411111 1111.');
    return deps.store.console.payments(account, { limit: PAGE, card: { bin: m[1]!, ...(m[2] ? { last4: m[2] } : {}) }, ...(before ? { before } : {}) });
  }
  const type = by === 'customer' ? 'customer_id' : 'email';
  const normal = normaliseIdentity(type, q);
  if (normal === null) throw new UserError(`That is not a valid ${by === 'customer' ? 'customer id' : 'email address'}.`);
  // Only keyed hashes are stored: the value is hashed the way scoring hashed it.
  const rows = await deps.store.scorings.findByIdentity(account, by === 'customer' ? 'customer' : 'email', deps.learning.hasher.hash(type, normal));
  return rows.map(fromScoring).sort((a, b) => (a.scoredAt < b.scoredAt ? 1 : -1)).slice(0, 500);
}

function labelButtons(ctx: Ctx, transactionId: string): Html {
  const form = (outcome: string, label: string, cls: string) => html`<form class="inline" method="post" action="${accountPath(ctx, 'payments/outcome')}">${csrfField(ctx)}<input type="hidden" name="transaction" value="${transactionId}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit" class="${cls}">${label}</button></form>`;
  return html`${form('fraud_confirmed', 'Fraud', 'danger')}${form('legit_confirmed', 'Legit', 'good')}`;
}

export function registerPayments(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/a/:account/payments', page(deps, async (_req, _reply, ctx) => {
    const s = Search.parse(Object.fromEntries(Object.entries(ctx.query).filter(([, v]) => v !== '')));
    const q = (s.q ?? '').trim();
    const account = ctx.account!.id;
    const rows = await search(deps, account, s.by, q, s.before);
    const outcomes = await Promise.all(rows.map((r) => (r.transactionId ? deps.store.outcomes.get(account, r.transactionId) : Promise.resolve(null))));
    const sel = (v: string) => (s.by === v ? html` selected` : '');
    const last = rows.at(-1);
    return layout(ctx, {
      title: 'Payments',
      active: 'payments',
      body: html`<form class="filters" method="get" action="${accountPath(ctx, 'payments')}" aria-label="Search payments">
<div class="field"><label for="p-by">Search by</label><select id="p-by" name="by"><option value="transaction"${sel('transaction')}>transaction id</option><option value="customer"${sel('customer')}>customer id</option><option value="email"${sel('email')}>email</option><option value="card"${sel('card')}>card BIN / last four</option></select></div>
<div class="field"><label for="p-q">Value</label><input id="p-q" name="q" value="${q}" maxlength="255"></div>
<button type="submit">Search</button> <a href="${accountPath(ctx, 'payments')}">Latest</a></form>
<p class="muted">Card numbers are never stored: only the BIN, the last four digits and a keyed hash.</p>
${rows.length === 0 ? html`<p>No payments found.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Transaction</th><th scope="col" class="num">Score</th><th scope="col">Rules</th><th scope="col">Card</th><th scope="col" class="num">Amount</th><th scope="col">Outcome</th><th scope="col">History</th><th scope="col">Label</th></tr></thead>
<tbody>${rows.map((r, i) => {
  const o = outcomes[i];
  return html`<tr><td>${r.scoredAt.slice(0, 19).replace('T', ' ')}</td><td>${r.transactionId ?? '—'}</td><td class="num ${riskClass(r.score)}">${r.score}</td>
<td>${r.rules.join(', ')}</td><td>${r.cardBin ? `${r.cardBin}…${r.cardLast4 ?? ''}` : '—'}</td><td class="num">${r.amount ?? ''} ${r.currency ?? ''}</td>
<td>${o ? html`<span class="tag">${o.outcome}</span> <span class="muted">${o.status}</span>` : r.outcome ?? html`<span class="muted">none</span>`}</td>
<td>${o ? `${o.occurredAt.slice(0, 10)}${o.reason ? `: ${o.reason}` : ''} (updated ${o.updatedAt.slice(0, 10)})` : '—'}</td>
<td>${r.transactionId ? labelButtons(ctx, r.transactionId) : ''}</td></tr>`;
})}</tbody></table></div>`}
${!s.by && rows.length === PAGE && last ? html`<p class="pager"><a href="${accountPath(ctx, 'payments')}${query({ before: last.id })}">Older</a></p>` : ''}`,
    });
  }));

  // The same as POST /feedback/payment {transaction_id, outcome}: the state table of the spec applies.
  app.post('/a/:account/payments/outcome', page(deps, async (_req, reply, ctx) => {
    const form = OutcomeForm.parse(ctx.form);
    const account = ctx.account!;
    const r = await deps.learning.feedback.payment(
      { accountId: account.id, now: ctx.now, test: false, autoBlacklist: account.settings.autoBlacklistConfirmedFraud },
      { transaction_id: form.transaction, outcome: form.outcome, reason: `dashboard ${ctx.session.actor}` },
    );
    await ctx.audit('payment.outcome', `${form.transaction}: ${r.outcome} (${r.label})`);
    return reply.redirect(`${accountPath(ctx, 'payments')}${query({ by: 'transaction', q: form.transaction, ok: 'labelled' })}`, 303);
  }));
}
