import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PLAN_METHODS } from '../../accounts/plans.ts';
import { SeedPlanSchema } from '../../accounts/seed.ts';
import type { Plan } from '../../store/ports.ts';
import { page, UserError, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { csrfField, layout } from '../layout.ts';

const MODULES = ['security', 'device'] as const;
const WholeNumber = (what: string) => z.string().trim().regex(/^\d{1,12}$/, `${what} must be a whole number`).transform(Number);

/** The plan form's fields (checkboxes `method:<path>` and `module:<name>`: the form parser keeps one value per name). */
function planFromForm(form: Record<string, string>): Plan {
  const methods = form.all_methods === 'on' ? ['*'] : Object.keys(form).filter((k) => k.startsWith('method:') && form[k] === 'on').map((k) => k.slice('method:'.length));
  if (methods.length === 0) throw new UserError('Choose at least one method (or all methods).');
  const quota = (form.monthlyQuota ?? '').trim();
  return SeedPlanSchema.parse({
    id: (form.id ?? '').trim(),
    methods,
    modules: MODULES.filter((m) => form[`module:${m}`] === 'on'),
    monthlyQuota: quota === '' ? null : WholeNumber('The monthly quota').parse(quota),
    flood: { limit: WholeNumber('The flood limit').parse(form.floodLimit ?? ''), windowSeconds: WholeNumber('The flood window').parse(form.floodWindow ?? '') },
  });
}

/** What the plan form shows: a stored plan, or what was typed when it was refused. */
interface FormValues { editing: boolean; id: string; methods: string[]; modules: string[]; quota: string; floodLimit: string; floodWindow: string }

const valuesOf = (p: Plan): FormValues => ({
  editing: true, id: p.id, methods: p.methods, modules: p.modules, quota: p.monthlyQuota === null ? '' : String(p.monthlyQuota),
  floodLimit: String(p.flood.limit), floodWindow: String(p.flood.windowSeconds),
});

const quotaText = (p: Plan): string => (p.monthlyQuota === null ? 'none' : p.monthlyQuota.toLocaleString('en'));

/**
 * Operators only: the plans (built-in and custom) with their quotas, create and edit (as PUT /admin/plans/:id does),
 * and which plan each account is on. Plans are not deleted: an account may still be on one (the admin API has no delete either).
 */
export function registerPlans(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts } = deps;
  const op = { operatorOnly: true };

  app.get('/plans', page(deps, async (_req, _reply, ctx) => {
    const [plans, list] = await Promise.all([accounts.listPlans(), accounts.listAccounts()]);
    const on = new Map<string, number>();
    for (const a of list) on.set(a.planId, (on.get(a.planId) ?? 0) + 1);
    return layout(ctx, {
      title: 'Plans',
      active: 'plans',
      body: html`<p class="muted">What each plan allows: its methods, modules, monthly quota (UTC calendar month) and flood limit. A change applies to the accounts on the plan at once on this instance and within 5 seconds on others (their key cache).</p>
<div class="scroll"><table id="plans"><thead><tr><th scope="col">Plan</th><th scope="col">Methods</th><th scope="col">Modules</th><th scope="col" class="num">Monthly quota</th><th scope="col">Flood limit</th><th scope="col" class="num">Accounts</th><th scope="col"></th></tr></thead>
<tbody>${plans.map((p) => html`<tr data-plan="${p.id}"><td>${p.id}</td><td>${p.methods.includes('*') ? 'all' : p.methods.join(', ')}</td><td>${p.modules.join(', ') || '—'}</td><td class="num">${quotaText(p)}</td><td>${p.flood.limit} per ${p.flood.windowSeconds} s</td><td class="num">${on.get(p.id) ?? 0}</td>
<td><a href="/dashboard/plans/${encodeURIComponent(p.id)}/edit">Edit<span class="sr"> ${p.id}</span></a></td></tr>`)}</tbody></table></div>
<p><a href="/dashboard/plans/new">New plan</a></p>
<h2 id="assign-title">Put an account on a plan</h2>
${list.length === 0 ? html`<p class="muted">No accounts yet.</p>` : html`<form class="filters" method="post" action="/dashboard/plans/assign" aria-labelledby="assign-title">${csrfField(ctx)}
<div class="field"><label for="assign-account">Account</label><select id="assign-account" name="account">${list.map((a) => html`<option value="${a.id}">${a.id} (now ${a.planId})</option>`)}</select></div>
<div class="field"><label for="assign-plan">Plan</label><select id="assign-plan" name="plan">${plans.map((p) => html`<option value="${p.id}">${p.id}</option>`)}</select></div>
<button type="submit">Change plan</button></form>`}`,
    });
  }, op));

  const form = (ctx: Ctx, v: FormValues, error?: string): Html => {
    const { editing } = v;
    const p = v;
    const all = p.methods.includes('*');
    const methods = [...new Set([...PLAN_METHODS, ...p.methods.filter((m) => m !== '*')])];
    return layout(ctx, {
      title: editing ? `Plan ${p.id}` : 'New plan',
      active: 'plans',
      error,
      body: html`<form class="stack" method="post" action="/dashboard/plans">${csrfField(ctx)}
${editing ? html`<input type="hidden" name="id" value="${p.id}"><input type="hidden" name="replace" value="yes"><p>Editing <strong>${p.id}</strong>: the accounts on it get the new limits.</p>`
  : html`<div class="field"><label for="plan-id">Plan id</label><input id="plan-id" name="id" required maxlength="64" pattern="[A-Za-z0-9][A-Za-z0-9_.\\-]{0,63}" value="${p.id}"></div>`}
<fieldset><legend>Methods</legend>
<label class="check"><input type="checkbox" name="all_methods" id="all-methods"${all ? html` checked` : ''}> All methods, including those added later (<code>*</code>)</label>
<div class="checks">${methods.map((m) => html`<label class="check"><input type="checkbox" name="method:${m}"${!all && p.methods.includes(m) ? html` checked` : ''}> ${m}</label>`)}</div>
<p class="muted">With "all methods" checked the list is ignored.</p></fieldset>
<fieldset><legend>Modules</legend>${MODULES.map((m) => html`<label class="check"><input type="checkbox" name="module:${m}"${p.modules.includes(m) ? html` checked` : ''}> ${m}</label>`)}</fieldset>
<div class="filters">
<div class="field"><label for="plan-quota">Monthly quota (calls; empty for none)</label><input id="plan-quota" name="monthlyQuota" inputmode="numeric" value="${p.quota}"></div>
<div class="field"><label for="plan-flood">Flood limit (requests)</label><input id="plan-flood" name="floodLimit" inputmode="numeric" required value="${p.floodLimit}"></div>
<div class="field"><label for="plan-window">Flood window (seconds)</label><input id="plan-window" name="floodWindow" inputmode="numeric" required value="${p.floodWindow}"></div>
</div>
<p><button type="submit">${editing ? 'Save plan' : 'Create plan'}</button> <a href="/dashboard/plans">Cancel</a></p>
</form>`,
    });
  };

  app.get('/plans/new', page(deps, (_req, _reply, ctx) => Promise.resolve(form(ctx, { editing: false, id: '', methods: ['*'], modules: [...MODULES], quota: '', floodLimit: '1000', floodWindow: '1' })), op));

  app.get('/plans/:id/edit', page(deps, async (req, _reply, ctx) => {
    const plan = await deps.store.accounts.getPlan(req.params.id ?? '');
    if (!plan) throw new UserError(`There is no plan ${req.params.id ?? ''}.`, 404);
    return form(ctx, valuesOf(plan));
  }, op));

  app.post('/plans', page(deps, async (_req, reply, ctx) => {
    let plan: Plan;
    try {
      plan = planFromForm(ctx.form);
    } catch (err) {
      // The form again with what was typed and why it was refused.
      if (err instanceof UserError || err instanceof z.ZodError) {
        const message = err instanceof z.ZodError ? err.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ') : err.message;
        const f = ctx.form;
        const typed: FormValues = {
          editing: f.replace === 'yes', id: f.id ?? '', quota: f.monthlyQuota ?? '', floodLimit: f.floodLimit ?? '', floodWindow: f.floodWindow ?? '',
          methods: f.all_methods === 'on' ? ['*'] : Object.keys(f).filter((k) => k.startsWith('method:')).map((k) => k.slice('method:'.length)),
          modules: MODULES.filter((m) => f[`module:${m}`] === 'on'),
        };
        return reply.code(400).type('text/html; charset=utf-8').send(form(ctx, typed, message).text);
      }
      throw err;
    }
    const existing = await deps.store.accounts.getPlan(plan.id);
    if (existing && ctx.form.replace !== 'yes') throw new UserError(`A plan ${plan.id} exists already: edit it instead.`, 409);
    await accounts.upsertPlan(plan);
    deps.onAccountsChange();
    const quota = plan.monthlyQuota === null ? 'no quota' : `quota ${plan.monthlyQuota}`;
    await ctx.audit(existing ? 'plan.update' : 'plan.create', `${plan.id}: ${plan.methods.join(' ')}; modules ${plan.modules.join(' ') || 'none'}; ${quota}; flood ${plan.flood.limit}/${plan.flood.windowSeconds}s`, null);
    return reply.redirect(`/dashboard/plans?ok=${existing ? 'plan-updated' : 'plan-created'}`, 303);
  }, op));

  app.post('/plans/assign', page(deps, async (_req, reply, ctx) => {
    const id = ctx.form.account ?? '';
    const planId = ctx.form.plan ?? '';
    const before = await accounts.getAccount(id);
    if (!(await deps.store.accounts.getPlan(planId))) throw new UserError(`There is no plan ${planId}.`, 404);
    await accounts.updateAccount(id, { plan: planId });
    deps.onAccountsChange();
    await ctx.audit('account.plan', `${id}: ${before.planId} → ${planId}`, id);
    return reply.redirect('/dashboard/plans?ok=plan-assigned', 303);
  }, op));
}
