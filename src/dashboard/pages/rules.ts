import type { FastifyInstance } from 'fastify';
import type { BacktestResult, RuleTestResult } from '../../policy/rules-service.ts';
import { listFields } from '../../policy/rules/fields.ts';
import { ACTIONS_BY_GROUP, RULE_GROUPS, RULE_OPS, type RuleGroup } from '../../policy/types.ts';
import { page, userMessage, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { accountPath, actionButton, csrfField, layout } from '../layout.ts';
import { CONDITION_ROWS, draftOf, emptyRuleForm, period, readRuleForm, ruleToForm, sampleObject, type RuleFormValues } from '../rule-form.ts';

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);

function ruleForm(ctx: Ctx, v: RuleFormValues, ruleId: string | null): Html {
  const action = ruleId ? accountPath(ctx, `rules/${ruleId}`) : accountPath(ctx, 'rules');
  const sel = (a: string, b: string) => (a === b ? html` selected` : '');
  const rows = Array.from({ length: CONDITION_ROWS }, (_, i) => v.rows[i] ?? { field: '', op: 'eq', value: '' });
  return html`<form class="stack" method="post" action="${action}" aria-label="Rule">
${csrfField(ctx)}<input type="hidden" name="group" value="${v.group}">
<div class="field"><label for="r-title">Title</label><input id="r-title" name="title" value="${v.title}" required maxlength="200"></div>
<div class="field"><label for="r-mode">Match</label><select id="r-mode" name="mode"><option value="all"${sel(v.mode, 'all')}>all conditions</option><option value="any"${sel(v.mode, 'any')}>any condition</option></select></div>
<fieldset><legend>Conditions (group ${v.group})</legend>
<datalist id="fields-${v.group}">${listFields(v.group).map((f) => html`<option value="${f.path}">${f.type}</option>`)}</datalist>
${rows.map((r, i) => html`<div class="filters">
  <div class="field"><label for="field${i}">Field ${i + 1}</label><input id="field${i}" name="field${i}" list="fields-${v.group}" value="${r.field}" autocomplete="off"></div>
  <div class="field"><label for="op${i}">Operator ${i + 1}</label><select id="op${i}" name="op${i}">${RULE_OPS.map((op) => html`<option${sel(op, r.op)}>${op}</option>`)}</select></div>
  <div class="field"><label for="value${i}">Value ${i + 1}</label><input id="value${i}" name="value${i}" value="${r.value}"></div>
</div>`)}
<p class="muted">Lists (in, not_in) are comma-separated. For nested all/any groups write the conditions as JSON instead:</p>
<div class="field"><label for="r-json">Conditions as JSON (replaces the rows when filled)</label><textarea id="r-json" name="json" rows="4">${v.json}</textarea></div>
</fieldset>
<div class="filters">
  <div class="field"><label for="r-action">Action</label><select id="r-action" name="action">${ACTIONS_BY_GROUP[v.group].map((a) => html`<option${sel(a, v.action)}>${a}</option>`)}</select></div>
  <div class="field"><label for="r-score">Score (overwrite_score)</label><input id="r-score" name="score" type="number" step="any" value="${v.score}"></div>
  <div class="field"><label for="r-enabled"><input id="r-enabled" type="checkbox" name="enabled"${v.enabled ? html` checked` : ''}> Enabled</label></div>
</div>
<fieldset><legend>Try it before saving</legend>
<div class="field"><label for="r-input">Sample input (JSON, the request's fields)</label><textarea id="r-input" name="sampleInput" rows="3">${v.sampleInput}</textarea></div>
<div class="field"><label for="r-result">Sample result (JSON, the computed answer)</label><textarea id="r-result" name="sampleResult" rows="3">${v.sampleResult}</textarea></div>
<div class="filters">
  <div class="field"><label for="r-from">Backtest from</label><input id="r-from" type="date" name="from" value="${v.from}"></div>
  <div class="field"><label for="r-to">Backtest to</label><input id="r-to" type="date" name="to" value="${v.to}"></div>
</div>
</fieldset>
<div class="filters">
  <button type="submit" name="intent" value="preview" class="secondary">Test and backtest</button>
  <button type="submit" name="intent" value="save">Save rule</button>
</div>
</form>
<details><summary>Fields of the ${v.group} group</summary><div class="scroll"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th></tr></thead>
<tbody>${listFields(v.group).map((f) => html`<tr><td><code>${f.path}</code></td><td>${f.type}</td></tr>`)}</tbody></table></div></details>`;
}

function preview(test: RuleTestResult, backtest: BacktestResult): Html {
  const l = backtest.labels;
  return html`<section class="card" aria-labelledby="preview" id="preview-results"><h2 id="preview">Test and backtest</h2>
<p>Sample: <strong>${test.matched ? 'matches' : 'does not match'}</strong>${test.wouldApply ? html` (would ${test.wouldApply.type}${test.wouldApply.score !== undefined ? ` ${test.wouldApply.score}` : ''})` : ''}.</p>
<dl class="facts">
  <dt>Period</dt><dd>${backtest.from.slice(0, 10)} to ${backtest.to.slice(0, 10)} (end excluded)</dd>
  <dt>Evaluations</dt><dd>${backtest.evaluated}${backtest.truncated ? ' (only the oldest were run)' : ''}</dd>
  <dt>Matches</dt><dd id="bt-matched">${backtest.matched}</dd>
  <dt>Labelled</dt><dd>${l ? `${l.labelled} (${l.fraud} fraud, ${l.legit} legit)` : '—'}</dd>
  <dt>Precision</dt><dd id="bt-precision">${pct(l?.precision ?? null)}</dd>
  <dt>Recall</dt><dd id="bt-recall">${pct(l?.recall ?? null)}</dd>
</dl>
${backtest.examples.length > 0 ? html`<h3>Examples</h3><div class="scroll"><table><thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">User id</th><th scope="col">Input</th></tr></thead><tbody>
${backtest.examples.map((e) => html`<tr><td>${e.at.slice(0, 19)}</td><td>${e.operation}</td><td>${e.userId ?? ''}</td><td><code>${JSON.stringify(e.input).slice(0, 200)}</code></td></tr>`)}
</tbody></table></div>` : html`<p class="muted">No logged evaluation in the period matched.</p>`}
</section>`;
}

export function registerRules(app: FastifyInstance, deps: DashboardDeps): void {
  const { rules } = deps.policy;

  app.get('/a/:account/rules', page(deps, async (_req, _reply, ctx) => {
    const list = await rules.list(ctx.account!.id);
    return layout(ctx, {
      title: 'Rules',
      active: 'rules',
      body: html`<p>New rule for: ${RULE_GROUPS.map((g) => html`<a href="${accountPath(ctx, `rules/new?group=${g}`)}">${g}</a> `)}</p>
${list.length === 0 ? html`<p>No custom rules yet.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">Id</th><th scope="col">Title</th><th scope="col">Group</th><th scope="col">State</th><th scope="col">Action</th><th scope="col">Changed</th><th scope="col">Manage</th></tr></thead>
<tbody>${list.map((r) => html`<tr><td><a href="${accountPath(ctx, `rules/${r.id}`)}">${r.id}</a></td><td>${r.title}</td><td>${r.group}</td>
<td>${r.enabled ? html`<span class="tag">enabled</span>` : html`<span class="tag off">disabled</span>`}</td>
<td>${r.action.type}${r.action.score !== undefined ? ` ${r.action.score}` : ''}</td><td>${r.updatedAt.slice(0, 10)}</td>
<td>${r.enabled ? actionButton(ctx, accountPath(ctx, `rules/${r.id}/disable`), 'Disable', { cls: 'secondary' }) : actionButton(ctx, accountPath(ctx, `rules/${r.id}/enable`), 'Enable', { cls: 'secondary' })}
${actionButton(ctx, accountPath(ctx, `rules/${r.id}/delete`), 'Delete', { cls: 'danger', confirm: `Delete rule ${r.id}?` })}</td></tr>`)}
</tbody></table></div>`}`,
    });
  }));

  app.get('/a/:account/rules/new', page(deps, async (_req, _reply, ctx) => {
    const group = (RULE_GROUPS as readonly string[]).includes(ctx.query.group ?? '') ? (ctx.query.group as RuleGroup) : 'payment';
    return layout(ctx, { title: `New ${group} rule`, active: 'rules', body: ruleForm(ctx, emptyRuleForm(group, ctx.now), null) });
  }));

  app.get('/a/:account/rules/:rule', page(deps, async (req, _reply, ctx) => {
    const rule = await rules.get(ctx.account!.id, req.params.rule ?? '');
    return layout(ctx, { title: `Rule ${rule.id}`, active: 'rules', body: ruleForm(ctx, ruleToForm(rule, ctx.now), rule.id) });
  }));

  // Create (no id) or replace (id): "preview" runs the test and backtest on the draft and saves nothing.
  const save = (existing: boolean) => page(deps, async (req, reply, ctx) => {
    const account = ctx.account!.id;
    const ruleId = existing ? req.params.rule ?? null : null;
    const v = readRuleForm(ctx.form, ctx.now);
    const title = ruleId ? `Rule ${ruleId}` : `New ${v.group} rule`;
    try {
      const draft = draftOf(v);
      if (ctx.form.intent === 'preview') {
        const [test, backtest] = await Promise.all([
          rules.test(account, { rule: draft, input: sampleObject(v.sampleInput, 'sample input'), result: sampleObject(v.sampleResult, 'sample result') }),
          rules.backtest(account, { rule: draft, ...period(v), examples: 10 }),
        ]);
        return layout(ctx, { title, active: 'rules', body: html`${preview(test, backtest)}${ruleForm(ctx, v, ruleId)}` });
      }
      const saved = ruleId ? await rules.replace(account, ruleId, draft) : await rules.create(account, draft);
      await ctx.audit(ruleId ? 'rule.update' : 'rule.create', `${saved.id} "${saved.title}" (${saved.group}, ${saved.enabled ? 'enabled' : 'disabled'})`);
      return reply.redirect(`${accountPath(ctx, 'rules')}?ok=rule-saved`, 303);
    } catch (err) {
      const known = userMessage(err);
      if (!known) throw err;
      reply.code(known.status);
      return layout(ctx, { title, active: 'rules', error: known.message, body: ruleForm(ctx, v, ruleId) });
    }
  });
  app.post('/a/:account/rules', save(false));
  app.post('/a/:account/rules/:rule', save(true));

  for (const [verb, enabled] of [['enable', true], ['disable', false]] as const) {
    app.post(`/a/:account/rules/:rule/${verb}`, page(deps, async (req, reply, ctx) => {
      const rule = await rules.setEnabled(ctx.account!.id, req.params.rule ?? '', enabled);
      await ctx.audit(`rule.${verb}`, `${rule.id} "${rule.title}"`);
      return reply.redirect(`${accountPath(ctx, 'rules')}?ok=rule-${verb}d`, 303);
    }));
  }
  app.post('/a/:account/rules/:rule/delete', page(deps, async (req, reply, ctx) => {
    const id = req.params.rule ?? '';
    await rules.remove(ctx.account!.id, id);
    await ctx.audit('rule.delete', id);
    return reply.redirect(`${accountPath(ctx, 'rules')}?ok=rule-deleted`, 303);
  }));
}
