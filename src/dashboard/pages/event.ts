import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { page, UserError, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, plainText, type Html } from '../html.ts';
import { accountPath, actionButton, layout } from '../layout.ts';
import { signedBars } from '../svg.ts';
import { labelTag, riskClass } from './events.ts';

const EventId = z.string().regex(/^\d{1,15}$/, 'event ids are positive whole numbers').transform(Number);
const LabelForm = z.object({ label: z.enum(['fraud', 'legit']), reason: z.string().max(500).optional() });

function eventIdOf(raw: string): number {
  const parsed = EventId.safeParse(raw);
  if (!parsed.success) throw new UserError(`"${raw.slice(0, 32)}" is not an event id: event ids are positive whole numbers.`, 404);
  return parsed.data;
}

/** Leaves of the summary as dot paths (arrays joined), for a readable two-column table. */
function leaves(value: unknown, prefix = ''): Array<[string, string]> {
  if (Array.isArray(value)) return [[prefix, value.map(plainText).join(', ')]];
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
  return [[prefix, value === null ? 'null' : plainText(value)]];
}

interface Contribution { source?: unknown; id?: unknown; points?: unknown }

/** The `explain` contributions stored with the event, as signed bars (points sum to the score). */
function explanation(summary: Record<string, unknown>): Html {
  const raw = (summary.explanation as { contributions?: unknown } | undefined)?.contributions;
  if (!Array.isArray(raw)) return html`<p class="muted">This kind of event carries no explanation; the scored result is above.</p>`;
  const items = (raw as Contribution[])
    .filter((c) => typeof c.points === 'number')
    .map((c) => {
      const source = typeof c.source === 'string' ? c.source : '';
      const id = typeof c.id === 'string' ? c.id : '';
      // `base` and `model` are their own ids; rules read as "rule PF10003".
      return { label: source === id ? id : `${source} ${id}`.trim(), value: c.points as number };
    });
  return signedBars('Contributions to the score (points)', items);
}

export function registerEvent(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/a/:account/events/:id', page(deps, async (req, _reply, ctx) => {
    const account = ctx.account!.id;
    const id = eventIdOf(req.params.id ?? '');
    const event = await deps.store.events.getEvent(account, id);
    if (!event) throw new UserError(`There is no event #${id} in this account.`, 404);
    const [labels, deliveries, attempts] = await Promise.all([
      deps.store.console.eventLabels(account, [id]),
      deps.policy.webhooks.deliveries(account, { eventId: id }),
      deps.policy.webhooks.attempts(account, { eventId: id }),
    ]);
    const { explanation: _shownAsChart, ...result } = event.summary;
    const label = labels.get(id);
    return layout(ctx, {
      title: `Event #${id}`,
      active: 'events',
      body: html`
<p><a href="${accountPath(ctx, 'events')}">All events</a></p>
<div class="cards">
<section class="card" aria-labelledby="facts"><h2 id="facts">What happened</h2>
<dl class="facts">
  <dt>Kind</dt><dd>${event.kind}</dd>
  <dt>Risk</dt><dd class="${riskClass(event.risk)}">${event.risk}</dd>
  <dt>Subject</dt><dd>${event.subject}</dd>
  <dt>User id</dt><dd>${event.userId ?? '—'}</dd>
  <dt>Method</dt><dd>${event.operation}</dd>
  <dt>Time (UTC)</dt><dd>${event.createdAt}</dd>
  <dt>About</dt><dd>${event.identity ? `${event.identity.type} (hash ${event.identity.hash.slice(0, 8)}…)` : '—'}</dd>
  <dt>Label</dt><dd id="label">${labelTag(label)}</dd>
</dl>
<h2>Label</h2>
<p class="muted">Sent exactly as <code>POST /feedback/event</code> with this event_id: fraud marks a true positive, legit a false positive.</p>
${labelForm(ctx, id, 'fraud')}${labelForm(ctx, id, 'legit')}
</section>
<section class="card" aria-labelledby="result"><h2 id="result">Scored result</h2>
<table><tbody>${leaves(result).map(([k, v]) => html`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table>
</section>
</div>
<h2>Explanation</h2>
${explanation(event.summary)}
<h2>Webhook deliveries</h2>
${deliveries.length === 0 ? html`<p class="muted">No webhook deliveries for this event.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">Webhook</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last answer</th><th scope="col"></th></tr></thead>
<tbody>${deliveries.map((d) => {
  const last = attempts.filter((a) => a.deliveryId === d.id).at(-1);
  return html`<tr><td>${d.webhookId}</td><td>${d.status}</td><td class="num">${d.attempts}</td>
    <td>${last ? `${last.httpStatus ?? 'no answer'}${last.error ? ` (${last.error})` : ''} at ${last.attemptedAt}` : '—'}</td>
    <td>${actionButton(ctx, accountPath(ctx, `events/${id}/redeliver`), 'Redeliver', { fields: { webhookId: d.webhookId }, cls: 'secondary' })}</td></tr>`;
})}</tbody></table></div>`}`,
    });
  }));

  app.post('/a/:account/events/:id/label', page(deps, async (req, reply, ctx) => {
    const account = ctx.account!;
    const id = eventIdOf(req.params.id ?? '');
    const form = LabelForm.parse(ctx.form);
    // The same service and input as POST /feedback/event {event_id, label}: same states, same effects.
    const result = await deps.learning.feedback.label(
      { accountId: account.id, now: ctx.now, test: false, autoBlacklist: account.settings.autoBlacklistConfirmedFraud },
      { event_id: id, label: form.label, source: `dashboard ${ctx.session.actor}`, ...(form.reason ? { reason: form.reason } : {}) },
    );
    await ctx.audit('event.label', `event #${id} labelled ${form.label} (${result.status})`);
    return reply.redirect(`${accountPath(ctx, `events/${id}`)}?ok=labelled`, 303);
  }));

  app.post('/a/:account/events/:id/redeliver', page(deps, async (req, reply, ctx) => {
    const id = eventIdOf(req.params.id ?? '');
    const webhookId = ctx.form.webhookId || undefined;
    const jobs = await deps.policy.webhooks.redeliver(ctx.account!.id, id, webhookId);
    await ctx.audit('event.redeliver', `event #${id} queued again for ${jobs.length} webhook(s)`);
    return reply.redirect(`${accountPath(ctx, `events/${id}`)}?ok=redelivered`, 303);
  }));
}

function labelForm(ctx: Ctx, id: number, label: 'fraud' | 'legit'): Html {
  return actionButton(ctx, accountPath(ctx, `events/${id}/label`), label === 'fraud' ? 'Fraud' : 'Legit', { fields: { label }, cls: label === 'fraud' ? 'danger' : 'good' });
}
