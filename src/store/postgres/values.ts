/** PostgreSQL-only helpers; the rules shared with SQLite are in ../values.ts. */
export * from '../values.ts';

/** BIGINT columns arrive as text (pg will not guess at precision); counts stay far below 2^53. */
export function bigintCount(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`count out of the safe integer range: ${text}`);
  return value;
}

export function bigintCountOrNull(text: string | null): number | null {
  return text === null ? null : bigintCount(text);
}

/** SQL rendering a TIMESTAMPTZ column as `toISOString()` text, independent of session TimeZone and pg type parsers. */
export function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * Named statements made per batch size on first use, so each size is prepared (and planned) once per pooled
 * connection; the sizes are bounded by the batching that asks for them.
 */
export function statementsBySize(make: (size: number) => { name: string; text: string }): (size: number) => { name: string; text: string } {
  const made = new Map<number, { name: string; text: string }>();
  return (size) => {
    let statement = made.get(size);
    if (statement === undefined) {
      statement = make(size);
      made.set(size, statement);
    }
    return statement;
  };
}
