import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * The installation's NOTICE.md (the datasets and libraries that ask for attribution: GeoLite2,
 * GeoNames, word lists, ...), found beside package.json above this module so it works from src/
 * and from a compiled build alike.
 */
function findNotice(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) {
      const path = join(dir, 'NOTICE.md');
      return existsSync(path) ? readFileSync(path, 'utf8') : null;
    }
    dir = dirname(dir);
  }
  return null;
}

/** `GET /docs/licenses`: NOTICE.md as text/markdown, no key (licences are for everyone the service reaches). */
export function registerLicenseRoute(app: FastifyInstance): void {
  const notice = findNotice();
  app.get('/docs/licenses', { schema: { hide: true } }, (_req, reply) => {
    if (notice === null) return reply.callNotFound();
    return reply.type('text/markdown; charset=utf-8').header('cache-control', 'public, max-age=3600').send(notice);
  });
}
