import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';

export const SECRET_FILE = 'secret.key';

/**
 * The server secret for keyed hashes: SECRET_KEY when configured, else the one generated into
 * DATA_DIR on first start. Changing it invalidates every stored key hash.
 */
export function resolveSecret(configured: string | undefined, dataDir: string): { secret: string; generated: boolean } {
  if (configured) return { secret: configured, generated: false };
  const path = join(dataDir, SECRET_FILE);
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret.length < 32) throw new ConfigError(`${path} holds a secret shorter than 32 characters; remove it or set SECRET_KEY`);
    return { secret, generated: false };
  }
  // DATA_DIR holds the store and its secrets: created for its owner only (an existing one keeps its mode).
  const secret = randomBytes(32).toString('hex');
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(path, secret + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // With DATABASE_URL a read-only DATA_DIR passes the configuration check; the generated secret still needs it.
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError(
      `SECRET_KEY is not set and its generated copy cannot be written to ${path} (${code}): set SECRET_KEY (32 or more characters, the same on every instance) or point DATA_DIR at a directory this user can write`,
    );
  }
  return { secret, generated: true };
}
