import type { Pool } from 'pg';
import { CARD_HASHES_SQL, DECISION_PAGE, rekeyTokens, type CardRekey } from '../card-rekey.ts';
import { withTransaction } from './transaction.ts';

/** Advisory lock id of the card identity upgrade: the bytes of "vigilcrd" read as a 64-bit integer. */
const CARD_LOCK_ID = '8532464671501300836';

/**
 * Rewrites the scheme-1 card hashes of a PostgreSQL store (card-rekey.ts) in one transaction, under an advisory
 * lock so that instances starting together do it once: the others wait, then find scheme 2. Returns the number of
 * distinct cards rewritten, or null when the store was already on scheme 2.
 */
export async function rekeyPostgresCards(pool: Pool, rekey: CardRekey): Promise<number | null> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [CARD_LOCK_ID]);
    const { rows: [current] } = await client.query<{ scheme: number }>('SELECT scheme FROM card_identity');
    if (current === undefined || current.scheme === 2) return null;
    const { rows } = await client.query<{ h: string }>(CARD_HASHES_SQL);
    const old = new Map(rows.map((r) => [r.h, rekey(r.h)]));
    await client.query('CREATE TEMP TABLE card_rekey (old TEXT PRIMARY KEY, new TEXT NOT NULL) ON COMMIT DROP');
    await client.query('INSERT INTO card_rekey SELECT * FROM unnest($1::text[], $2::text[])', [[...old.keys()], [...old.values()]]);
    await client.query(`
      UPDATE payment_scorings p SET card_hash = m.new FROM card_rekey m WHERE p.card_hash = m.old;
      UPDATE payment_outcomes p SET card_hash = m.new FROM card_rekey m WHERE p.card_hash = m.old;
      UPDATE identity_evidence e SET value_hash = m.new FROM card_rekey m WHERE e.type = 'card' AND e.value_hash = m.old;
      UPDATE events e SET identity_hash = m.new FROM card_rekey m WHERE e.identity_type = 'card' AND e.identity_hash = m.old;
      UPDATE blacklist_entries b SET value = 'card:' || m.new FROM card_rekey m WHERE b.type = 'confirmed_fraud' AND b.value = 'card:' || m.old;
    `);
    if (old.size > 0) {
      for (let after = 0; ;) {
        const page = await client.query<{ id: string; identities: string }>(
          "SELECT id, identities FROM decision_log WHERE rule_group = 'payment' AND identities <> '' AND id > $1 ORDER BY id LIMIT $2",
          [after, DECISION_PAGE],
        );
        const ids: string[] = [];
        const values: string[] = [];
        for (const r of page.rows) {
          const next = rekeyTokens(r.identities, old);
          if (next !== null) {
            ids.push(r.id);
            values.push(next);
          }
        }
        if (ids.length > 0) {
          await client.query('UPDATE decision_log d SET identities = u.v FROM unnest($1::bigint[], $2::text[]) AS u(id, v) WHERE d.id = u.id', [ids, values]);
        }
        if (page.rows.length < DECISION_PAGE) break;
        after = Number(page.rows[page.rows.length - 1]!.id);
      }
    }
    await client.query('UPDATE card_identity SET scheme = 2');
    return old.size;
  });
}
