/**
 * Metric maths of the payment evaluation (scripts/eval-payment.ts), pure so it can be unit-tested:
 * ROC AUC, precision/recall at a score threshold, a calibration table. Scores are 0-100; a label
 * is true for fraud, false for legit. Unlabelled rows never reach these functions.
 */

export interface Scored {
  score: number;
  fraud: boolean;
}

/**
 * ROC AUC by the Mann-Whitney statistic over average ranks: the probability that a random fraud row
 * scores above a random legit row, ties counting one half. Many payments share exact scores (a
 * clean payment's score is the model's points alone), so ties must not be broken by input order.
 * null when either class is absent (the AUC is undefined).
 */
export function rocAuc(rows: readonly Scored[]): number | null {
  const sorted = [...rows].sort((a, b) => a.score - b.score);
  const positives = sorted.filter((r) => r.fraud).length;
  const negatives = sorted.length - positives;
  if (positives === 0 || negatives === 0) return null;
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.score === sorted[i]!.score) j++;
    // Ranks i+1 .. j (1-based) share their average.
    const average = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (sorted[k]!.fraud) rankSum += average;
    i = j;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface AtThreshold {
  threshold: number;
  /** Rows with score >= threshold. */
  flagged: number;
  /** flagged / rows. */
  flaggedShare: number;
  truePositives: number;
  falsePositives: number;
  /** TP / flagged; null when nothing is flagged. */
  precision: number | null;
  /** TP / fraud rows; null without fraud rows. */
  recall: number | null;
}

/** Precision, recall and the share flagged when every row scoring at least `threshold` is flagged. */
export function atThreshold(rows: readonly Scored[], threshold: number): AtThreshold {
  let tp = 0;
  let fp = 0;
  let fraud = 0;
  for (const r of rows) {
    if (r.fraud) fraud++;
    if (r.score >= threshold) {
      if (r.fraud) tp++;
      else fp++;
    }
  }
  const flagged = tp + fp;
  return {
    threshold,
    flagged,
    flaggedShare: rows.length === 0 ? 0 : flagged / rows.length,
    truePositives: tp,
    falsePositives: fp,
    precision: flagged === 0 ? null : tp / flagged,
    recall: fraud === 0 ? null : tp / fraud,
  };
}

export interface Band {
  /** Inclusive lower bound of the score band. */
  from: number;
  /** Exclusive upper bound, except the last band, which includes 100. */
  to: number;
  count: number;
  /** Mean score / 100 in the band (what the score would claim as a probability); null when empty. */
  meanScore: number | null;
  /** Share of fraud rows in the band; null when empty. */
  fraudRate: number | null;
}

/**
 * Reliability table in bands of `width` points (0-10, 10-20, ..., 90-100 by default): a calibrated
 * score would have meanScore close to fraudRate in every band. A score of exactly 100 falls in the
 * last band; scores outside 0-100 are clamped into the first or last band.
 */
export function calibration(rows: readonly Scored[], width = 10): Band[] {
  const n = Math.ceil(100 / width);
  const sums = Array.from({ length: n }, () => ({ count: 0, score: 0, fraud: 0 }));
  for (const r of rows) {
    const i = Math.min(n - 1, Math.max(0, Math.floor(r.score / width)));
    const b = sums[i]!;
    b.count++;
    b.score += r.score;
    if (r.fraud) b.fraud++;
  }
  return sums.map((b, i) => ({
    from: i * width,
    to: Math.min(100, (i + 1) * width),
    count: b.count,
    meanScore: b.count === 0 ? null : b.score / b.count / 100,
    fraudRate: b.count === 0 ? null : b.fraud / b.count,
  }));
}

export interface Summary {
  rows: number;
  fraud: number;
  fraudRate: number | null;
  auc: number | null;
  thresholds: AtThreshold[];
}

/** The headline figures of one set of labelled rows. */
export function summarize(rows: readonly Scored[], thresholds: readonly number[]): Summary {
  const fraud = rows.filter((r) => r.fraud).length;
  return {
    rows: rows.length,
    fraud,
    fraudRate: rows.length === 0 ? null : fraud / rows.length,
    auc: rocAuc(rows),
    thresholds: thresholds.map((t) => atThreshold(rows, t)),
  };
}
