import type { FastifyInstance } from 'fastify';
import { eventsCsv } from '../../policy/events/export.ts';
import { EVENT_KINDS } from '../../policy/types.ts';
import type { StoredEvent } from '../../store/ports.ts';
import { page, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { filterParams, readEventFilter, toStoreFilter, type EventFilterValues } from '../event-filter.ts';
import { html, query, type Html } from '../html.ts';
import { accountPath, layout } from '../layout.ts';

const PAGE = 50;
const EXPORT_MAX = 100_000;

export function riskClass(risk: number): string {
  return risk >= 60 ? 'risk-high' : risk >= 30 ? 'risk-mid' : '';
}

export function labelTag(label: 'fraud' | 'legit' | undefined): Html {
  return label ? html`<span class="tag ${label}">${label}</span>` : html`<span class="muted">none</span>`;
}

function filters(ctx: Ctx, v: EventFilterValues): Html {
  const opt = (value: string, current: string | undefined, label = value) => html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="${accountPath(ctx, 'events')}" aria-label="Filter events">
  <div class="field"><label for="f-kind">Kind</label><select id="f-kind" name="kind">${opt('', v.kind, 'any')}${EVENT_KINDS.map((k) => opt(k, v.kind))}</select></div>
  <div class="field"><label for="f-from">From</label><input id="f-from" type="date" name="from" value="${v.from ?? ''}"></div>
  <div class="field"><label for="f-to">To</label><input id="f-to" type="date" name="to" value="${v.to ?? ''}"></div>
  <div class="field"><label for="f-rmin">Risk from</label><input id="f-rmin" type="number" min="0" max="100" step="any" name="riskMin" value="${v.riskMin ?? ''}" size="5"></div>
  <div class="field"><label for="f-rmax">Risk to</label><input id="f-rmax" type="number" min="0" max="100" step="any" name="riskMax" value="${v.riskMax ?? ''}" size="5"></div>
  <div class="field"><label for="f-user">User id</label><input id="f-user" name="user" value="${v.user ?? ''}" maxlength="255"></div>
  <div class="field"><label for="f-lab">Labelled</label><select id="f-lab" name="labelled">${opt('', v.labelled, 'either')}${opt('yes', v.labelled)}${opt('no', v.labelled)}</select></div>
  <button type="submit">Filter</button>
  <a href="${accountPath(ctx, 'events')}">Clear</a>
</form>`;
}

export function eventRows(ctx: Ctx, events: readonly StoredEvent[], labels: Map<number, 'fraud' | 'legit'>): Html {
  if (events.length === 0) return html`<p>No events match.</p>`;
  return html`<div class="scroll"><table>
<thead><tr><th scope="col">Event</th><th scope="col">Time (UTC)</th><th scope="col">Kind</th><th scope="col" class="num">Risk</th><th scope="col">Subject</th><th scope="col">User id</th><th scope="col">Label</th></tr></thead>
<tbody>${events.map((e) => html`<tr>
  <td><a href="${accountPath(ctx, `events/${e.eventId}`)}">#${e.eventId}</a></td>
  <td>${e.createdAt.slice(0, 19).replace('T', ' ')}</td><td>${e.kind}</td>
  <td class="num ${riskClass(e.risk)}">${Math.round(e.risk * 100) / 100}</td>
  <td>${e.subject}</td><td>${e.userId ?? ''}</td><td>${labelTag(labels.get(e.eventId))}</td></tr>`)}
</tbody></table></div>`;
}

export function registerEvents(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/a/:account/events', page(deps, async (_req, _reply, ctx) => {
    const v = readEventFilter(ctx.query);
    const account = ctx.account!.id;
    const events = await deps.store.events.listEvents(account, toStoreFilter(v, PAGE));
    const labels = await deps.store.console.eventLabels(account, events.map((e) => e.eventId));
    const keep = filterParams(v);
    const last = events.at(-1);
    const pager = html`<div class="pager">
      ${v.before !== undefined ? html`<a href="${accountPath(ctx, 'events')}${query(keep)}">Newest</a>` : ''}
      ${events.length === PAGE && last ? html`<a href="${accountPath(ctx, 'events')}${query({ ...keep, before: last.eventId })}" rel="next">Older</a>` : ''}
    </div>`;
    return layout(ctx, {
      title: 'Events',
      active: 'events',
      body: html`${filters(ctx, v)}
<p><a href="${accountPath(ctx, 'events/export.csv')}${query(keep)}" download>Export these events as CSV</a> <span class="muted">(all pages, up to ${EXPORT_MAX.toLocaleString('en')} rows)</span></p>
${eventRows(ctx, events, labels)}${pager}`,
    });
  }));

  // The whole filtered range, newest first, paged through the store as the admin export is.
  app.get('/a/:account/events/export.csv', page(deps, async (_req, reply, ctx) => {
    const filter = toStoreFilter(readEventFilter(ctx.query), 1000);
    const account = ctx.account!.id;
    const events: StoredEvent[] = [];
    for (;;) {
      const batch = await deps.store.events.listEvents(account, filter);
      events.push(...batch);
      const last = batch.at(-1);
      if (!last || batch.length < 1000 || events.length >= EXPORT_MAX) break;
      filter.before = last.eventId;
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="events-${account.replace(/[^A-Za-z0-9_-]/g, '_')}.csv"`)
      .send(eventsCsv(events.slice(0, EXPORT_MAX)));
  }));
}
