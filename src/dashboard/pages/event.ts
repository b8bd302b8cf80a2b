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

interface Contribution { source?: unknown; id?: unknown; signal?: unknown; points?: unknown; weight?: unknown }

const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A contribution's bar label: `rule PF10003`, `engine disposable`, `risk tor`; `base` and `model` are their own ids. */
function barLabel(c: Contribution): string {
  const source = textOf(c.source);
  const what = textOf(c.id) || textOf(c.signal);
  return source === what || what === '' ? source : `${source} ${what}`;
}

/**
 * What drove the event's risk, from what is stored with it and nothing else: points that sum to the score
 * (payments, emails), or the weights of the signals a risk combines (IP addresses, text); for events stored
 * without numbers (fixed verdicts such as an invalid phone or BIN, events from before explanations were stored),
 * the factors their stored result names, as a list.
 */
function explanation(kind: string, summary: Record<string, unknown>): Html {
  const raw = (summary.explanation as { contributions?: unknown } | undefined)?.contributions;
  const all = Array.isArray(raw) ? (raw as Contribution[]) : [];
  const points = all.filter((c) => typeof c.points === 'number').map((c) => ({ label: barLabel(c), value: c.points as number }));
  if (points.length > 0) {
    return html`<p class="muted" id="explain-kind">Each bar is what one part added to the score (points); the bars sum to the score, ${plainText(summary.score ?? summary.risk ?? '')}.</p>
${signedBars('Contributions to the score (points)', points)}`;
  }
  const weights = all.filter((c) => typeof c.weight === 'number').map((c) => ({ label: barLabel(c), value: c.weight as number }));
  if (weights.length > 0) {
    const how = kind === 'profanity'
      ? 'The risk combines these parts (0 to 1; not a sum): the word lists and abuse patterns, and the text model where it applies.'
      : 'Each bar is one signal and its weight (0 to 1); the risk combines them as 100 × (1 − Π(1 − weight)), not as a sum.';
    return html`<p class="muted" id="explain-kind">${how}</p>${signedBars('Signals behind the risk (weight)', weights)}`;
  }
  const factors = storedFactors(summary);
  return html`<p class="muted" id="explain-kind">${all.length === 0 && summary.explanation === undefined ? 'No numbers behind this risk are stored with the event' : 'The stored explanation holds no numbers'}${kind === 'spam_phone' || kind === 'invalid_bin' || kind === 'invalid_iban' ? ' (its risk is a fixed verdict of 100)' : ''}; what its stored result names:</p>
${factors.length === 0 ? html`<p class="muted">Nothing beyond the scored result above.</p>` : html`<ul id="factors">${factors.map((f) => html`<li>${f}</li>`)}</ul>`}`;
}

/** The flags a stored result raises (true flags, `isValid: false`) and its reason, as written. */
function storedFactors(summary: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'explanation') continue;
    if (v === true && k !== 'isSafe') out.push(k);
    if (v === false && k === 'isValid') out.push('not valid (isValid false)');
  }
  if (typeof summary.reason === 'string' && summary.reason !== '') out.push(`reason: ${summary.reason}`);
  return out;
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
${explanation(event.kind, event.summary)}
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
