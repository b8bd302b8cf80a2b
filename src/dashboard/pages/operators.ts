import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { page, UserError, type Ctx } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { actionButton, csrfField, layout } from '../layout.ts';
import { hashPassword } from '../password.ts';

const NewAccount = z.object({ id: z.string().max(64).optional(), plan: z.string().min(1) });
const NewKey = z.object({ kind: z.enum(['live', 'test']) });
const NewUser = z.object({
  username: z.string().regex(/^[A-Za-z0-9._@-]{3,64}$/, 'must be 3 to 64 letters, digits or . _ @ -'),
  password: z.string().min(12, 'must be at least 12 characters').max(200),
});

/** Operators only: accounts, plans, keys and dashboard users, through the admin API's AccountService. */
export function registerOperators(app: FastifyInstance, deps: DashboardDeps): void {
  const { accounts } = deps;

  const render = async (ctx: Ctx, shownKey?: { accountId: string; key: string }): Promise<Html> => {
    const [list, plans, users] = await Promise.all([accounts.listAccounts(), accounts.listPlans(), deps.store.console.listUsers()]);
    const keys = await Promise.all(list.map((a) => accounts.listKeys(a.id)));
    return layout(ctx, {
      title: 'Accounts, plans and keys',
      active: 'accounts',
      body: html`${shownKey ? html`<p class="notice" role="status">New key for ${shownKey.accountId}: <code id="new-key">${shownKey.key}</code>. Copy it now: only a keyed hash is stored.</p>` : ''}
<p><a href="/dashboard/audit">Audit log of every account</a></p>
<h2>Accounts</h2>
<div class="scroll"><table><thead><tr><th scope="col">Account</th><th scope="col">Plan</th><th scope="col">Status</th><th scope="col">Subscription</th><th scope="col">Keys</th><th scope="col">Manage</th></tr></thead>
<tbody>${list.map((a, i) => html`<tr><td><a href="/dashboard/a/${encodeURIComponent(a.id)}/overview">${a.id}</a></td><td>${a.planId}</td><td>${a.status}</td>
<td>${a.subscription === null ? 'none' : a.subscription.expiresAt ?? 'never expires'}</td>
<td>${keys[i]!.length === 0 ? html`<span class="muted">none</span>` : html`<ul>${keys[i]!.map((k) => html`<li>${k.kind} …${k.hint} <span class="muted">${k.id}</span> ${k.revokedAt ? html`<span class="tag off">revoked</span>` : actionButton(ctx, `/dashboard/keys/${encodeURIComponent(k.id)}/revoke`, 'Revoke', { cls: 'danger', confirm: `Revoke key …${k.hint}? Calls with it fail at once.` })}</li>`)}</ul>`}
${actionButton(ctx, `/dashboard/accounts/${encodeURIComponent(a.id)}/keys`, 'New live key', { fields: { kind: 'live' }, cls: 'secondary' })}${actionButton(ctx, `/dashboard/accounts/${encodeURIComponent(a.id)}/keys`, 'New test key', { fields: { kind: 'test' }, cls: 'secondary' })}</td>
<td>${a.status === 'active' ? actionButton(ctx, `/dashboard/accounts/${encodeURIComponent(a.id)}/status`, 'Disable', { fields: { status: 'inactive' }, cls: 'danger', confirm: `Disable ${a.id}? Its calls get error 102.` }) : actionButton(ctx, `/dashboard/accounts/${encodeURIComponent(a.id)}/status`, 'Enable', { fields: { status: 'active' } })}</td></tr>`)}</tbody></table></div>
<form class="filters" method="post" action="/dashboard/accounts">${csrfField(ctx)}
<div class="field"><label for="acc-id">New account id (optional)</label><input id="acc-id" name="id" maxlength="64"></div>
<div class="field"><label for="acc-plan">Plan</label><select id="acc-plan" name="plan">${plans.map((p) => html`<option${p.id === 'premium' ? html` selected` : ''}>${p.id}</option>`)}</select></div>
<button type="submit">Create account</button></form>
<h2>Plans</h2>
<div class="scroll"><table><thead><tr><th scope="col">Plan</th><th scope="col">Methods</th><th scope="col">Modules</th><th scope="col" class="num">Monthly quota</th><th scope="col">Flood limit</th></tr></thead>
<tbody>${plans.map((p) => html`<tr><td>${p.id}</td><td>${p.methods.join(', ')}</td><td>${p.modules.join(', ')}</td><td class="num">${p.monthlyQuota?.toLocaleString('en') ?? 'none'}</td><td>${p.flood.limit} per ${p.flood.windowSeconds} s</td></tr>`)}</tbody></table></div>
<p><a href="/dashboard/plans">Create and edit plans, change an account's plan</a></p>
<h2>Dashboard users</h2>
<div class="scroll"><table><thead><tr><th scope="col">User</th><th scope="col">Account</th><th scope="col">Created</th><th scope="col"></th></tr></thead>
<tbody>${users.map((u) => html`<tr><td>${u.username}</td><td>${u.accountId}</td><td>${u.createdAt.slice(0, 10)}</td><td>${actionButton(ctx, `/dashboard/users/${encodeURIComponent(u.username)}/delete`, 'Delete', { cls: 'danger', confirm: `Delete ${u.username}? Their sessions end.` })}</td></tr>`)}</tbody></table></div>
<form class="filters" method="post" action="/dashboard/users">${csrfField(ctx)}
<div class="field"><label for="u-name">Username</label><input id="u-name" name="username" required autocomplete="off"></div>
<div class="field"><label for="u-pass">Password (12+ characters)</label><input id="u-pass" name="password" type="password" required autocomplete="new-password" minlength="12"></div>
<div class="field"><label for="u-acc">Account</label><select id="u-acc" name="account">${list.map((a) => html`<option>${a.id}</option>`)}</select></div>
<button type="submit">Create user</button></form>`,
    });
  };

  const op = { operatorOnly: true };
  app.get('/accounts', page(deps, (_req, _reply, ctx) => render(ctx), op));

  app.post('/accounts', page(deps, async (_req, reply, ctx) => {
    const form = NewAccount.parse(ctx.form);
    const created = await accounts.createAccount({ plan: form.plan, ...(form.id ? { id: form.id } : {}) });
    deps.onAccountsChange();
    await ctx.audit('account.create', `${created.id} on ${created.planId}`, created.id);
    return reply.redirect('/dashboard/accounts?ok=account-created', 303);
  }, op));

  app.post('/accounts/:id/status', page(deps, async (req, reply, ctx) => {
    const status = z.enum(['active', 'inactive']).parse(ctx.form.status);
    const id = req.params.id ?? '';
    await accounts.updateAccount(id, { status });
    deps.onAccountsChange();
    await ctx.audit('account.status', `${id} ${status}`, id);
    return reply.redirect('/dashboard/accounts?ok=account-updated', 303);
  }, op));

  app.post('/accounts/:id/keys', page(deps, async (req, _reply, ctx) => {
    const { kind } = NewKey.parse(ctx.form);
    const id = req.params.id ?? '';
    const { key, record } = await accounts.createKey(id, kind);
    deps.onAccountsChange();
    await ctx.audit('key.create', `${record.kind} key ${record.id} (…${record.hint})`, id);
    return render(ctx, { accountId: id, key });
  }, op));

  app.post('/keys/:key/revoke', page(deps, async (req, reply, ctx) => {
    const keyId = req.params.key ?? '';
    await accounts.revokeKey(keyId);
    deps.onAccountsChange();
    await ctx.audit('key.revoke', keyId, null);
    return reply.redirect('/dashboard/accounts?ok=key-revoked', 303);
  }, op));

  app.post('/users', page(deps, async (_req, reply, ctx) => {
    const form = NewUser.parse(ctx.form);
    const account = await accounts.getAccount(ctx.form.account ?? '');
    const created = await deps.store.console.insertUser({ username: form.username, accountId: account.id, passwordHash: await hashPassword(form.password), createdAt: ctx.now.toISOString() });
    if (!created) throw new UserError(`The username ${form.username} is taken.`, 409);
    await ctx.audit('user.create', `${form.username} for ${account.id}`, account.id);
    return reply.redirect('/dashboard/accounts?ok=user-created', 303);
  }, op));

  app.post('/users/:name/delete', page(deps, async (req, reply, ctx) => {
    const name = req.params.name ?? '';
    const user = await deps.store.console.getUser(name);
    if (!user || !(await deps.store.console.deleteUser(name))) throw new UserError(`There is no user ${name}.`, 404);
    await ctx.audit('user.delete', name, user.accountId);
    return reply.redirect('/dashboard/accounts?ok=user-deleted', 303);
  }, op));
}
