/**
 * One CSV row of the evaluation format (docs/payment-eval.md) into a POST /scoring/payment body and
 * its label. Pure: the send time is passed in.
 */

/** Columns that steer the evaluation and are never sent in `data`. */
export const SPECIAL_COLUMNS = new Set(['label', 'account_age_seconds', 'pattern', 'time']);

/** Spec fields sent as JSON numbers (amounts, balance, coordinates) and as integers. */
const NUMBER_FIELDS = new Set([
  'transaction_amount', 'customer_balance',
  'customer_latitude', 'customer_longitude', 'shipping_latitude', 'shipping_longitude', 'billing_latitude', 'billing_longitude',
  'customer_registration_date',
]);
/** Spec fields sent as JSON booleans. */
const BOOLEAN_FIELDS = new Set(['isDigitalProducts', 'cvv_result', 'customer_2fa']);
/** Spec fields holding JSON (an array of objects): cart_items, as the cell's JSON text. */
const JSON_FIELDS = new Set(['cart_items']);

export type Label = 'fraud' | 'legit' | null;

/** `1`/`fraud`/`true` fraud, `0`/`legit`/`false` legit, empty unlabelled; anything else throws. */
export function parseLabel(cell: string | undefined): Label {
  const v = (cell ?? '').trim().toLowerCase();
  if (v === '') return null;
  if (v === '1' || v === 'fraud' || v === 'true') return 'fraud';
  if (v === '0' || v === 'legit' || v === 'false') return 'legit';
  throw new Error(`label "${cell}" is not 1/fraud/true, 0/legit/false or empty`);
}

const BOOLEANS: Record<string, boolean> = { true: true, '1': true, yes: true, false: false, '0': false, no: false };

/**
 * A cell as the JSON type the spec gives its field. A cell that does not read as that type is sent as
 * the text it is, so the server's answer (error 130) counts it: the evaluation does not hide bad rows.
 */
function typed(field: string, cell: string): unknown {
  if (NUMBER_FIELDS.has(field)) {
    const n = Number(cell);
    return cell.trim() !== '' && Number.isFinite(n) ? n : cell;
  }
  if (BOOLEAN_FIELDS.has(field)) return BOOLEANS[cell.trim().toLowerCase()] ?? cell;
  if (JSON_FIELDS.has(field)) {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return cell;
    }
  }
  return cell;
}

export interface Prepared {
  data: Record<string, unknown>;
  transactionId: string;
  label: Label;
  pattern: string;
}

/**
 * `row` is the 1-based data row (header excluded), used for a missing transaction_id (`eval-<row>`).
 * `nowUnix` is the send time: account_age_seconds becomes customer_registration_date = now - age,
 * the account's age at the purchase whatever the wall clock of the replay.
 */
export function prepareRow(record: Readonly<Record<string, string>>, row: number, nowUnix: number): Prepared {
  const data: Record<string, unknown> = {};
  for (const [field, cell] of Object.entries(record)) {
    if (SPECIAL_COLUMNS.has(field) || field === '' || cell.trim() === '') continue;
    data[field] = typed(field, cell);
  }
  const age = (record.account_age_seconds ?? '').trim();
  if (age !== '' && data.customer_registration_date === undefined) {
    const seconds = Number(age);
    if (!Number.isFinite(seconds)) throw new Error(`row ${row}: account_age_seconds "${age}" is not a number`);
    data.customer_registration_date = Math.round(nowUnix - seconds);
  }
  if (data.transaction_id === undefined) data.transaction_id = `eval-${row}`;
  return { data, transactionId: String(data.transaction_id), label: parseLabel(record.label), pattern: (record.pattern ?? '').trim() };
}

/** A `time` cell as a sortable number: UNIX seconds, or an ISO 8601 date; null when empty or unreadable. */
export function parseTime(cell: string | undefined): number | null {
  const v = (cell ?? '').trim();
  if (v === '') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t / 1000;
}
