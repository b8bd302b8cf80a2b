import type { FastifyReply } from 'fastify';
import type { Ctx } from './context.ts';
import { html, type Html } from './html.ts';

export type Section = 'overview' | 'events' | 'payments' | 'rules' | 'lists' | 'webhooks' | 'model' | 'audit' | 'accounts' | 'plans' | 'none';

const ACCOUNT_PAGES: Array<[Section, string, string]> = [
  ['overview', 'overview', 'Overview'],
  ['events', 'events', 'Events'],
  ['payments', 'payments', 'Payments'],
  ['rules', 'rules', 'Rules'],
  ['lists', 'lists', 'Lists'],
  ['webhooks', 'webhooks', 'Webhooks'],
  ['model', 'model', 'Model and data'],
  ['audit', 'audit', 'Audit log'],
];

/** Short notices shown after a change (POST, then redirect with ?ok=<code>): fixed text, so a link cannot put words on the page. */
export const NOTICES: Record<string, string> = {
  labelled: 'Label saved, as POST /feedback/event would save it.',
  'rule-saved': 'Rule saved.',
  'rule-enabled': 'Rule enabled.',
  'rule-disabled': 'Rule disabled.',
  'rule-deleted': 'Rule deleted.',
  'list-added': 'Entries added.',
  'list-removed': 'Entry removed.',
  'webhook-added': 'Webhook added.',
  'webhook-removed': 'Webhook removed.',
  'secret-rotated': 'Secret rotated: copy the new secret now, it is not shown again.',
  redelivered: 'Delivery queued again.',
  'account-created': 'Account created.',
  'account-updated': 'Account updated.',
  'key-created': 'Key created: copy it now, it is not shown again.',
  'key-revoked': 'Key revoked.',
  'user-created': 'Dashboard user created.',
  'user-deleted': 'Dashboard user deleted.',
  'plan-created': 'Plan created.',
  'plan-updated': 'Plan saved: the accounts on it have the new limits.',
  'plan-assigned': 'Plan changed.',
};

function nav(ctx: Ctx | undefined, active: Section): Html {
  if (!ctx) return html``;
  const account = ctx.account?.id ?? ctx.session.accountId;
  const link = (href: string, label: string, on: boolean) => html`<li><a href="${href}"${on ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const items: Html[] = [];
  if (account) for (const [section, path, label] of ACCOUNT_PAGES) items.push(link(`/dashboard/a/${encodeURIComponent(account)}/${path}`, label, active === section));
  if (ctx.session.role === 'operator') {
    items.push(link('/dashboard/accounts', 'Accounts, plans, keys', active === 'accounts'));
    items.push(link('/dashboard/plans', 'Plans', active === 'plans'));
  }
  const switcher = ctx.session.role === 'operator' && ctx.accountIds.length > 0
    ? html`<form class="switch" method="get" action="/dashboard/switch">
        <label for="switch-account">Account</label>
        <select id="switch-account" name="account" data-autosubmit>
          ${ctx.accountIds.map((id) => html`<option value="${id}"${id === account ? html` selected` : ''}>${id}</option>`)}
        </select>
        <button type="submit">Open</button>
      </form>`
    : html``;
  return html`<nav aria-label="Main"><ul>${items}</ul></nav>
    <div class="who">${switcher}
      <span>Signed in as <strong>${ctx.session.role === 'operator' ? 'operator' : ctx.session.actor}</strong>${ctx.session.accountId ? html` (account ${ctx.session.accountId})` : ''}</span>
      <form method="post" action="/dashboard/sign-out"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button type="submit">Sign out</button></form>
    </div>`;
}

/** A whole page: header with navigation, the notice of the last change, the content. */
export function layout(ctx: Ctx | undefined, opts: { title: string; active: Section; body: Html; error?: string | undefined }): Html {
  const notice = ctx?.query.ok !== undefined ? NOTICES[ctx.query.ok] : undefined;
  const where = ctx?.account ? ` · ${ctx.account.id}` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}${where} · Vigil</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
<link rel="icon" href="data:,">
<script src="/dashboard/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><a class="brand" href="/dashboard">Vigil</a>${nav(ctx, opts.active)}</header>
<main id="main">
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
<h1>${opts.title}</h1>
${opts.body}
</main>
</body>
</html>`;
}

export function errorPage(reply: FastifyReply, status: number, title: string, message: string, ctx?: Ctx): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(layout(ctx, { title, active: 'none', body: html`<p>${message}</p><p><a href="/dashboard">Back to the dashboard</a></p>` }).text);
}

/** A hidden CSRF field, for every POST form. */
export function csrfField(ctx: Ctx): Html {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;
}

/** A POST form of one button (enable, delete, label...). */
export function actionButton(ctx: Ctx, action: string, label: string, opts: { confirm?: string; fields?: Record<string, string>; cls?: string } = {}): Html {
  return html`<form class="inline" method="post" action="${action}"${opts.confirm ? html` data-confirm="${opts.confirm}"` : ''}>${csrfField(ctx)}${Object.entries(opts.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit"${opts.cls ? html` class="${opts.cls}"` : ''}>${label}</button></form>`;
}

export function accountPath(ctx: Ctx, rest: string): string {
  const id = ctx.account?.id ?? ctx.session.accountId ?? '';
  return `/dashboard/a/${encodeURIComponent(id)}/${rest}`;
}
