import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Owner read and write only, as `secret.key`: the store holds personal data and keyed hashes. */
const PRIVATE = 0o600;

/**
 * Makes a SQLite file (and its directory) before SQLite opens it, readable by its owner only. SQLite creates
 * the `-wal`, `-shm` and `-journal` files with the database file's mode, so they follow; files of earlier
 * versions (0644) and those companions, when present, are narrowed here too.
 */
export function preparePrivateFile(path: string): void {
  // A directory created here is the owner's alone; an existing one keeps the mode its operator gave it.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', PRIVATE));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) if (existsSync(file)) chmodSync(file, PRIVATE);
}
