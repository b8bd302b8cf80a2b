import type { PolicyVerdict } from './types.ts';

export interface VerdictTargets {
  /** Where `blacklisted` goes: the result itself (BIN, phone, email) or a nested block (IP `security`, threats). */
  listed?: Record<string, unknown> | undefined;
  /** Also copy `custom_rules_applied` into this block (the IP result repeats it under `security`). */
  rulesCopy?: Record<string, unknown> | undefined;
  /** Field set by mark_valid / mark_invalid (`isValid`), with the reason to give when a rule marks it invalid. */
  validity?: { field: string; reasonField?: string } | undefined;
  /** Field replaced by overwrite_score (`score`). */
  score?: string | undefined;
}

/**
 * Writes a policy verdict into a result the way the spec shows it: `custom_rules_applied` at the top,
 * `blacklisted` where the endpoint keeps it, and the validity and score a rule overwrote. Endpoints
 * call this from their PolicySubject.apply so every method shows verdicts alike.
 */
export function writeVerdict(result: Record<string, unknown>, verdict: PolicyVerdict, targets: VerdictTargets): void {
  result.custom_rules_applied = verdict.rulesApplied;
  if (targets.rulesCopy) targets.rulesCopy.custom_rules_applied = verdict.rulesApplied;
  if (targets.listed) targets.listed.blacklisted = verdict.blacklisted;
  if (targets.validity && verdict.valid !== undefined) {
    const { field, reasonField } = targets.validity;
    const was = result[field];
    result[field] = verdict.valid;
    if (reasonField && was !== verdict.valid) result[reasonField] = verdict.valid ? '' : 'Marked invalid by a custom rule.';
  }
  if (targets.score && verdict.score !== undefined) result[targets.score] = verdict.score;
}
