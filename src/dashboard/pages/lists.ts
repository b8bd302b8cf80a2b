import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { blacklistType, ListsService } from '../../policy/lists-service.ts';
import { BLACKLIST_TYPES, type BlacklistType } from '../../policy/types.ts';
import { page, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, query, type Html } from '../html.ts';
import { readImport, SHOWN_LINE_ERRORS, type ImportLine } from '../list-import.ts';
import { accountPath, actionButton, csrfField, layout } from '../layout.ts';

const PAGE = 100;
const AddForm = z.object({ type: z.string(), values: z.string().max(32 * 1024 * 1024), note: z.string().max(500).optional() });

function typeSelect(id: string, current: string | undefined, withAny = false): Html {
  return html`<select id="${id}" name="type">${withAny ? html`<option value="">every type</option>` : ''}${BLACKLIST_TYPES.map((t) => html`<option${t === current ? html` selected` : ''}>${t}</option>`)}</select>`;
}

function forms(ctx: Ctx, type: string | undefined): Html {
  return html`<div class="cards">
<section class="card" aria-labelledby="add"><h2 id="add">Add entries</h2>
<form class="stack" method="post" action="${accountPath(ctx, 'lists/add')}">${csrfField(ctx)}
<div class="field"><label for="add-type">List</label>${typeSelect('add-type', type ?? 'ip')}</div>
<div class="field"><label for="add-values">Values, one per line</label><textarea id="add-values" name="values" rows="4" required></textarea></div>
<div class="field"><label for="add-note">Note (optional)</label><input id="add-note" name="note" maxlength="500"></div>
<button type="submit">Add</button></form></section>
<section class="card" aria-labelledby="import"><h2 id="import">Import a CSV file</h2>
<form class="stack" method="post" action="${accountPath(ctx, 'lists/import')}">${csrfField(ctx)}
<div class="field"><label for="imp-type">List</label>${typeSelect('imp-type', type ?? 'ip')}</div>
<div class="field"><label for="imp-file">File (CSV with a <code>value</code> column, or one value per line)</label><input id="imp-file" type="file" accept=".csv,.txt,text/csv,text/plain" data-into="imp-text"></div>
<div class="field"><label for="imp-text">File contents</label><textarea id="imp-text" name="values" rows="4" required></textarea></div>
<button type="submit">Import</button></form></section>
</div>`;
}

function importReport(result: { received: number; changed: number; bad: number; errors: ImportLine[] }): Html {
  return html`<section class="card" aria-labelledby="imported" id="import-report"><h2 id="imported">Import</h2>
<p>${result.received} good values read, ${result.changed} new entries added, ${result.bad} lines refused.</p>
${result.errors.length > 0 ? html`<div class="scroll"><table><caption>Refused lines${result.bad > SHOWN_LINE_ERRORS ? ` (first ${SHOWN_LINE_ERRORS})` : ''}</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Value</th><th scope="col">Why</th></tr></thead>
<tbody>${result.errors.map((e) => html`<tr><td class="num">${e.line}</td><td>${e.value}</td><td>${e.error}</td></tr>`)}</tbody></table></div>` : ''}
</section>`;
}

async function listPage(deps: DashboardDeps, ctx: Ctx, extra?: Html): Promise<Html> {
  const account = ctx.account!.id;
  const type: BlacklistType | undefined = ctx.query.type ? blacklistType(ctx.query.type) : undefined;
  const after = ctx.query.afterType && ctx.query.afterValue !== undefined ? { type: blacklistType(ctx.query.afterType), value: ctx.query.afterValue } : undefined;
  const [counts, entries] = await Promise.all([
    deps.policy.lists.counts(account),
    deps.policy.lists.list(account, { ...(type ? { type } : {}), limit: PAGE, ...(after ? { after } : {}) }),
  ]);
  const last = entries.at(-1);
  return layout(ctx, {
    title: 'Lists',
    active: 'lists',
    body: html`${extra ?? ''}
<h2>Blacklists</h2>
<div class="scroll"><table><thead><tr><th scope="col">List</th><th scope="col" class="num">Entries</th></tr></thead>
<tbody>${BLACKLIST_TYPES.map((t) => html`<tr><td><a href="${accountPath(ctx, 'lists')}${query({ type: t })}">${t}</a></td><td class="num" data-type="${t}">${counts[t] ?? 0}</td></tr>`)}</tbody></table></div>
${forms(ctx, type)}
<h2>Entries${type ? ` of ${type}` : ''}</h2>
<form class="filters" method="get" action="${accountPath(ctx, 'lists')}"><div class="field"><label for="show-type">Show</label>${typeSelect('show-type', type, true)}</div><button type="submit">Show</button></form>
${entries.length === 0 ? html`<p>No entries.</p>` : html`<div class="scroll"><table><thead><tr><th scope="col">List</th><th scope="col">Value</th><th scope="col">Note</th><th scope="col">Added</th><th scope="col"></th></tr></thead>
<tbody>${entries.map((e) => html`<tr><td>${e.type}</td><td>${e.value}</td><td>${e.note ?? ''}</td><td>${e.createdAt.slice(0, 10)}</td>
<td>${actionButton(ctx, accountPath(ctx, 'lists/remove'), 'Remove', { fields: { type: e.type, value: e.value }, cls: 'danger', confirm: `Remove ${e.value} from ${e.type}?` })}</td></tr>`)}</tbody></table></div>`}
${entries.length === PAGE && last ? html`<p class="pager"><a href="${accountPath(ctx, 'lists')}${query({ type, afterType: last.type, afterValue: last.value })}">More</a></p>` : ''}`,
  });
}

export function registerLists(app: FastifyInstance, deps: DashboardDeps): void {
  app.get('/a/:account/lists', page(deps, (_req, _reply, ctx) => listPage(deps, ctx)));

  app.post('/a/:account/lists/add', page(deps, async (_req, reply, ctx) => {
    const form = AddForm.parse(ctx.form);
    const type = blacklistType(form.type);
    const change = await deps.policy.lists.add(ctx.account!.id, type, ListsService.linesOf(form.values), { note: form.note || null });
    await ctx.audit('list.add', `${change.changed} new of ${change.received} ${type} value(s)`);
    return reply.redirect(`${accountPath(ctx, 'lists')}${query({ type, ok: 'list-added' })}`, 303);
  }));

  app.post('/a/:account/lists/remove', page(deps, async (_req, reply, ctx) => {
    const type = blacklistType(ctx.form.type);
    const value = ctx.form.value ?? '';
    const change = await deps.policy.lists.remove(ctx.account!.id, type, [value]);
    await ctx.audit('list.remove', `${type} ${value} (${change.changed} removed)`);
    return reply.redirect(`${accountPath(ctx, 'lists')}${query({ type, ok: 'list-removed' })}`, 303);
  }));

  // The good lines are imported, the bad ones listed with their line numbers (a file is rarely perfect).
  app.post('/a/:account/lists/import', page(deps, async (_req, _reply, ctx) => {
    const form = AddForm.parse(ctx.form);
    const type = blacklistType(form.type);
    const read = readImport(type, form.values);
    const change = read.values.length > 0 ? await deps.policy.lists.add(ctx.account!.id, type, read.values, { note: 'dashboard import', skipInvalid: true }) : { changed: 0 };
    await ctx.audit('list.import', `${type}: ${change.changed} new of ${read.values.length} good line(s), ${read.bad} refused`);
    ctx.query = { type };
    return listPage(deps, ctx, importReport({ received: read.values.length, changed: change.changed, bad: read.bad, errors: read.errors }));
  }));
}
