import type { Database } from 'better-sqlite3';
import { CARD_HASHES_SQL, DECISION_PAGE, rekeyTokens, type CardRekey } from '../card-rekey.ts';
import type { StatementRunner } from './worker-connection.ts';

const scheme = (db: Database): number => db.prepare<[], number>('SELECT scheme FROM card_identity').pluck().get() ?? 2;

/**
 * Rewrites the scheme-1 card hashes of a SQLite store (card-rekey.ts): the decision log first (idempotent by
 * value), then every table of the main file and the scheme in one IMMEDIATE transaction. Returns the number of
 * distinct cards rewritten, or null when the store was already on scheme 2.
 */
export async function rekeySqliteCards(db: Database, decisions: StatementRunner, rekey: CardRekey): Promise<number | null> {
  if (scheme(db) === 2) return null;
  const old = new Map<string, string>();
  for (const h of db.prepare<[], string>(CARD_HASHES_SQL).pluck().iterate()) old.set(h, rekey(h));
  if (old.size > 0) {
    for (let after = 0; ;) {
      const page = await decisions.all<{ id: number; identities: string }>('rekeyPage', [after, DECISION_PAGE]);
      const rows = page.flatMap((r) => {
        const next = rekeyTokens(r.identities, old);
        return next === null ? [] : [[next, r.id]];
      });
      await decisions.runEach('rekeySet', rows);
      if (page.length < DECISION_PAGE) break;
      after = page[page.length - 1]!.id;
    }
  }
  db.function('vigil_card_rekey', { deterministic: true }, (h: unknown) => (typeof h === 'string' ? (old.get(h) ?? rekey(h)) : h));
  const run = db.transaction((): number | null => {
    if (scheme(db) === 2) return null; // another process did it meanwhile
    db.exec(`
      UPDATE payment_scorings SET card_hash = vigil_card_rekey(card_hash) WHERE card_hash IS NOT NULL;
      UPDATE payment_outcomes SET card_hash = vigil_card_rekey(card_hash) WHERE card_hash IS NOT NULL;
      UPDATE identity_evidence SET value_hash = vigil_card_rekey(value_hash) WHERE type = 'card';
      UPDATE events SET identity_hash = vigil_card_rekey(identity_hash) WHERE identity_type = 'card' AND identity_hash IS NOT NULL;
      UPDATE blacklist_entries SET value = 'card:' || vigil_card_rekey(substr(value, 6)) WHERE type = 'confirmed_fraud' AND value LIKE 'card:%';
      UPDATE card_identity SET scheme = 2;
    `);
    return old.size;
  });
  return run.immediate();
}
