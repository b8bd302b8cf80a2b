import Database from 'better-sqlite3';

/** One place a needle was found: the table, the column, the row (its columns as text) and which needle. */
export interface DbHit {
  table: string;
  column: string;
  needle: string;
  value: string;
}

/** A store's SQLite files: one path, or several (the database and the decision log's own file). */
type Files = string | readonly string[];
const each = (files: Files): readonly string[] => (typeof files === 'string' ? [files] : files);

/**
 * Scans every column of every row of every table of SQLite files (opened read-only) for each needle,
 * case-insensitively: text as is, blobs as latin1 text. Numbers are skipped. Returns every hit.
 * The caller flushes the app's buffered writes first (`recorder.flush()`); the WAL is read too.
 */
export function searchDatabase(files: Files, needles: readonly string[]): DbHit[] {
  return each(files).flatMap((file) => searchFile(file, needles));
}

function searchFile(file: string, needles: readonly string[]): DbHit[] {
  const wanted = [...new Set(needles.filter((n) => n !== ''))].map((n) => ({ needle: n, lower: n.toLowerCase() }));
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    const hits: DbHit[] = [];
    for (const { name } of tables) {
      const rows = db.prepare<[], Record<string, unknown>>(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all();
      for (const row of rows) {
        for (const [column, raw] of Object.entries(row)) {
          let text: string;
          if (typeof raw === 'string') text = raw;
          else if (Buffer.isBuffer(raw)) text = raw.toString('latin1');
          else continue;
          const lower = text.toLowerCase();
          for (const w of wanted) if (lower.includes(w.lower)) hits.push({ table: name, column, needle: w.needle, value: text.length > 300 ? `${text.slice(0, 300)}…` : text });
        }
      }
    }
    return hits;
  } finally {
    db.close();
  }
}

/** Row counts of every table, added up over the files (for before/after comparisons). */
export function tableCounts(files: Files): Record<string, number> {
  const out: Record<string, number> = {};
  for (const file of each(files)) for (const [table, n] of Object.entries(countFile(file))) out[table] = (out[table] ?? 0) + n;
  return out;
}

function countFile(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    const out: Record<string, number> = {};
    for (const { name } of tables) out[name] = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get()!.n;
    return out;
  } finally {
    db.close();
  }
}
