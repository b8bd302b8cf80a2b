/** SQLite-only helpers; the rules shared with PostgreSQL are in ../values.ts. */
export * from '../values.ts';
import { decodeSettings as decodeSettingsValue, decodeStringList as decodeStringListValue } from '../values.ts';
import type { AccountSettings } from '../ports.ts';

/** Runs synchronous better-sqlite3 work behind the async port, turning a throw into a rejection. */
export function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(work());
  });
}

/** SQLite keeps lists and settings as JSON text. */
export function decodeStringList(json: string): string[] {
  return decodeStringListValue(JSON.parse(json));
}

export function decodeSettings(json: string): AccountSettings {
  return decodeSettingsValue(JSON.parse(json));
}
