import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, isAbsolute } from 'node:path';

export interface CardKeySettings {
  /** CARD_KEY */
  cardKey: string | undefined;
  /** CARD_KEY_FILE */
  cardKeyFile: string | undefined;
  /** SECRET_KEY as configured in the environment (not the one generated into DATA_DIR). */
  secretKey: string | undefined;
  dataDir: string;
}

export interface CardKey {
  secret: string;
  /** Where it came from, for the start log: `CARD_KEY`, `SECRET_KEY` or the file's path. */
  source: string;
  /** A file generated at this start (its path). */
  generated: string | undefined;
}

/** The file beside DATA_DIR, named after it: `./data` → `./data.card-key`. */
export const defaultCardKeyFile = (dataDir: string): string => `${resolve(dataDir)}.card-key`;

const inside = (dir: string, file: string): boolean => {
  const rel = relative(resolve(dir), resolve(file));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The secret that keys card identities a second time (identity-hash.ts). Never in DATA_DIR, so a copy of the
 * data directory alone cannot reverse a card: CARD_KEY; else CARD_KEY_FILE; else derived from SECRET_KEY when
 * that comes from the environment; else a file generated beside DATA_DIR on first start.
 */
export function resolveCardKey(s: CardKeySettings): CardKey {
  if (s.cardKey !== undefined) return { secret: s.cardKey, source: 'CARD_KEY', generated: undefined };
  if (s.cardKeyFile === undefined && s.secretKey !== undefined) {
    return { secret: createHmac('sha256', s.secretKey).update('vigil/card-secret').digest('hex'), source: 'SECRET_KEY', generated: undefined };
  }
  const path = resolve(s.cardKeyFile ?? defaultCardKeyFile(s.dataDir));
  if (inside(s.dataDir, path)) {
    throw new Error(`the card key file ${path} is inside DATA_DIR, where a copy of the data would carry it: set CARD_KEY_FILE outside DATA_DIR, or CARD_KEY`);
  }
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret.length < 32) throw new Error(`${path} holds a card key shorter than 32 characters; remove it or set CARD_KEY`);
    return { secret, source: path, generated: undefined };
  }
  try {
    mkdirSync(dirname(path), { recursive: true });
    const secret = randomBytes(32).toString('hex');
    writeFileSync(path, secret + '\n', { mode: 0o600, flag: 'wx' });
    return { secret, source: path, generated: path };
  } catch (err) {
    throw new Error(`cannot write the card key to ${path} (${(err as Error).message}): set CARD_KEY, SECRET_KEY, or CARD_KEY_FILE to a writable path outside DATA_DIR`);
  }
}
