import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuditEntry } from '../../store/console-port.ts';
import { page, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, query, type Html } from '../html.ts';
import { layout } from '../layout.ts';

const PAGE = 100;
const Before = z.coerce.number().int().min(1).optional();

function table(ctx: Ctx, entries: readonly AuditEntry[], path: string): Html {
  const last = entries.at(-1);
  return html`${entries.length === 0 ? html`<p>No changes recorded.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">Account</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead>
<tbody>${entries.map((e) => html`<tr><td>${e.at.slice(0, 19).replace('T', ' ')}</td><td>${e.actor}</td><td>${e.accountId ?? '—'}</td><td>${e.action}</td><td>${e.detail}</td></tr>`)}</tbody></table></div>`}
${entries.length === PAGE && last ? html`<p class="pager"><a href="${path}${query({ before: last.id })}">Older</a></p>` : ''}
<p class="muted">${ctx.session.role === 'operator' ? 'Every change made through the dashboard, with sign-ins.' : 'Changes to this account made through the dashboard.'}</p>`;
}

export function registerAudit(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/a/:account/audit', page(deps, async (_req, _reply, ctx) => {
    const before = Before.parse(ctx.query.before || undefined);
    const entries = await deps.store.console.listAudit({ accountId: ctx.account!.id, limit: PAGE, ...(before ? { before } : {}) });
    return layout(ctx, { title: 'Audit log', active: 'audit', body: table(ctx, entries, `/dashboard/a/${encodeURIComponent(ctx.account!.id)}/audit`) });
  }));
  app.get('/audit', page(deps, async (_req, _reply, ctx) => {
    const before = Before.parse(ctx.query.before || undefined);
    const entries = await deps.store.console.listAudit({ limit: PAGE, ...(before ? { before } : {}) });
    return layout(ctx, { title: 'Audit log (all accounts)', active: 'accounts', body: table(ctx, entries, '/dashboard/audit') });
  }, { operatorOnly: true }));
}
