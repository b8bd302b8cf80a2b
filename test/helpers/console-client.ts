import assert from 'node:assert/strict';
import type { TestApp } from './harness.ts';

/** A signed-in console user driving the dashboard through app.inject: keeps the cookie, fills CSRF tokens. */
export class ConsoleClient {
  cookie: string | undefined;

  constructor(private readonly t: TestApp) {}

  /** Signs in with a token/key or a username and password; returns the HTTP status (303 when signed in). */
  async signIn(form: Record<string, string>): Promise<number> {
    const res = await this.t.app.inject({ method: 'POST', url: '/dashboard/sign-in', payload: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const set = res.headers['set-cookie'];
    const line = Array.isArray(set) ? set[0] : set;
    if (res.statusCode === 303 && line) this.cookie = line.split(';')[0];
    return res.statusCode;
  }

  async get(url: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
    const res = await this.t.app.inject({ method: 'GET', url, headers: this.cookie ? { cookie: this.cookie } : {} });
    return { status: res.statusCode, body: res.body, headers: res.headers };
  }

  async post(url: string, form: Record<string, string>, csrf?: string): Promise<{ status: number; body: string; location: string | undefined }> {
    const token = csrf ?? (await this.tokenFrom(url));
    const res = await this.t.app.inject({
      method: 'POST', url, payload: new URLSearchParams({ ...(token === '' ? {} : { _csrf: token }), ...form }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}) },
    });
    const location = res.headers.location;
    return { status: res.statusCode, body: res.body, location: typeof location === 'string' ? location : undefined };
  }

  /** A CSRF token from the page the form lives on (the account's overview has the sign-out form). */
  private async tokenFrom(url: string): Promise<string> {
    const m = /^\/dashboard\/a\/([^/]+)\//.exec(url);
    const page = await this.get(m ? `/dashboard/a/${m[1]}/overview` : '/dashboard/accounts');
    const found = /name="_csrf" value="([^"]+)"/.exec(page.body);
    assert.ok(found, `no CSRF token on the page for ${url} (${page.status})`);
    return found[1]!;
  }
}
