import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountService } from '../accounts/service.ts';
import type { ConsoleRole, ConsoleSession } from '../store/console-port.ts';
import type { Store } from '../store/ports.ts';

export const COOKIE = 'vigil_console';

/** Who is signed in: an operator (every account) or an analyst of one account. */
export interface Principal {
  role: ConsoleRole;
  accountId: string | null;
  actor: string;
  keyId: string | null;
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/**
 * Console sessions: a random 256-bit cookie value, stored only as its SHA-256, with an expiry. The CSRF
 * token of a session is an HMAC of its stored id under SECRET_KEY, so it needs no storage of its own.
 */
export class ConsoleSessions {
  constructor(
    private readonly store: Store,
    private readonly accounts: AccountService,
    private readonly secret: string,
    private readonly clock: () => Date,
    readonly ttlMinutes: number,
  ) {}

  async create(who: Principal): Promise<{ token: string; session: ConsoleSession }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const session: ConsoleSession = {
      idHash: sha256(token), role: who.role, accountId: who.accountId, actor: who.actor, keyId: who.keyId,
      createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + this.ttlMinutes * 60_000).toISOString(),
    };
    await this.store.console.insertSession(session);
    // Expired rows go on each sign-in: no timer, and the table stays the size of the live sessions.
    await this.store.console.pruneSessions(now.toISOString());
    return { token, session };
  }

  /** The live session of a cookie value; null when unknown, expired, or its API key was revoked. */
  async resolve(token: string | undefined): Promise<ConsoleSession | null> {
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const session = await this.store.console.getSession(sha256(token), this.clock().toISOString());
    if (!session) return null;
    if (session.keyId !== null && session.accountId !== null) {
      const keys = await this.accounts.listKeys(session.accountId).catch(() => []);
      if (!keys.some((k) => k.id === session.keyId && k.revokedAt === null)) return null;
    }
    return session;
  }

  async end(token: string | undefined): Promise<void> {
    if (token && /^[A-Za-z0-9_-]{43}$/.test(token)) await this.store.console.deleteSession(sha256(token));
  }

  csrfOf(session: ConsoleSession): string {
    return createHmac('sha256', this.secret).update(`console-csrf:${session.idHash}`).digest('base64url');
  }

  checkCsrf(session: ConsoleSession, sent: unknown): boolean {
    if (typeof sent !== 'string') return false;
    const a = Buffer.from(this.csrfOf(session));
    const b = Buffer.from(sent);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/** The value of one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${COOKIE}=${token}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function clearedCookie(secure: boolean): string {
  return `${COOKIE}=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
