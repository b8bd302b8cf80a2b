import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { page } from '../context.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { accountPath, actionButton, csrfField, layout } from '../layout.ts';

const AddForm = z.object({ url: z.string().min(1, 'is required').max(2048) });

export function registerWebhooks(app: FastifyInstance, deps: DashboardDeps): void {
  const { webhooks } = deps.policy;

  const render = async (ctx: Parameters<Parameters<typeof page>[1]>[2], shown?: { id: string; secret: string }): Promise<Html> => {
    const account = ctx.account!.id;
    const [list, deliveries] = await Promise.all([webhooks.list(account), webhooks.deliveries(account, { limit: 50 })]);
    return layout(ctx, {
      title: 'Webhooks',
      active: 'webhooks',
      body: html`${shown ? html`<p class="notice" role="status">Signing secret of ${shown.id}: <code id="new-secret">${shown.secret}</code>. Copy it now: it is stored sealed and not shown again.</p>` : ''}
<h2>Targets</h2>
${list.length === 0 ? html`<p>No webhooks: events are kept in the event log only.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">Id</th><th scope="col">URL</th><th scope="col">Added</th><th scope="col">Manage</th></tr></thead>
<tbody>${list.map((w) => html`<tr><td>${w.id}</td><td>${w.url}</td><td>${w.createdAt.slice(0, 10)}</td>
<td>${actionButton(ctx, accountPath(ctx, `webhooks/${w.id}/rotate`), 'Rotate secret', { cls: 'secondary', confirm: 'Rotate the signing secret? The receiver must switch to the new one.' })}
${actionButton(ctx, accountPath(ctx, `webhooks/${w.id}/delete`), 'Remove', { cls: 'danger', confirm: `Remove ${w.url}? Its pending deliveries go with it.` })}</td></tr>`)}</tbody></table></div>`}
<form class="filters" method="post" action="${accountPath(ctx, 'webhooks')}">${csrfField(ctx)}
<div class="field"><label for="wh-url">New webhook URL</label><input id="wh-url" name="url" type="url" required size="40" placeholder="https://example.com/vigil-hook"></div>
<button type="submit">Add webhook</button></form>
<h2>Recent deliveries</h2>
${deliveries.length === 0 ? html`<p>No deliveries yet.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">Event</th><th scope="col">Webhook</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Next attempt / delivered</th><th scope="col"></th></tr></thead>
<tbody>${deliveries.map((d) => html`<tr><td><a href="${accountPath(ctx, `events/${d.eventId}`)}">#${d.eventId}</a></td><td>${d.webhookId}</td><td>${d.status}</td><td class="num">${d.attempts}</td>
<td>${d.deliveredAt ?? d.nextAttemptAt}</td><td>${actionButton(ctx, accountPath(ctx, `events/${d.eventId}/redeliver`), 'Redeliver', { fields: { webhookId: d.webhookId }, cls: 'secondary' })}</td></tr>`)}</tbody></table></div>`}`,
    });
  };

  app.get('/a/:account/webhooks', page(deps, (_req, _reply, ctx) => render(ctx)));

  app.post('/a/:account/webhooks', page(deps, async (_req, _reply, ctx) => {
    const form = AddForm.parse(ctx.form);
    const added = await webhooks.add(ctx.account!.id, form.url);
    await ctx.audit('webhook.add', `${added.id} ${added.url}`);
    return render(ctx, { id: added.id, secret: added.secret });
  }));

  app.post('/a/:account/webhooks/:webhook/rotate', page(deps, async (req, _reply, ctx) => {
    const rotated = await webhooks.rotateSecret(ctx.account!.id, req.params.webhook ?? '');
    await ctx.audit('webhook.rotate-secret', rotated.id);
    return render(ctx, { id: rotated.id, secret: rotated.secret });
  }));

  app.post('/a/:account/webhooks/:webhook/delete', page(deps, async (req, reply, ctx) => {
    const id = req.params.webhook ?? '';
    await webhooks.remove(ctx.account!.id, id);
    await ctx.audit('webhook.remove', id);
    return reply.redirect(`${accountPath(ctx, 'webhooks')}?ok=webhook-removed`, 303);
  }));
}
