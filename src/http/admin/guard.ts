import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface AdminError {
  status: 'error';
  type: string;
  description: string;
}

/** Admin answers use real HTTP statuses (they are for operators' tools, not API clients). */
export function adminError(reply: FastifyReply, http: number, type: string, description: string): FastifyReply {
  const body: AdminError = { status: 'error', type, description };
  return reply.code(http).send(body);
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** preHandler guarding /admin: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export function adminGuard(token: string | undefined) {
  const expected = token ? digest(token) : undefined;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!expected) {
      await adminError(reply, 503, 'admin_disabled', 'The admin API is disabled: set ADMIN_TOKEN to enable it.');
      return;
    }
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!m?.[1] || !timingSafeEqual(digest(m[1].trim()), expected)) {
      await adminError(reply, 401, 'unauthorized', 'Send the admin token as Authorization: Bearer <ADMIN_TOKEN>.');
    }
  };
}
