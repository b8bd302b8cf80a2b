/**
 * The policy verdict for one subject: list hits plus the account's rules of the endpoint's group.
 * Rules run in id order; every matching rule is listed, and within each dimension (listed,
 * validity, score) the last matching rule's action wins.
 */
import type { ListProbe, PolicyVerdict } from '../types.ts';
import type { CompiledRule } from './evaluate.ts';

/** Orders rule ids numerically (CR101 < CR102 < CR1000); ids of another shape sort after, as text. */
export function ruleOrder(a: string, b: string): number {
  const na = idNumber(a);
  const nb = idNumber(b);
  if (na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function idNumber(id: string): number {
  return /^CR\d{1,15}$/.test(id) ? Number(id.slice(2)) : Number.MAX_VALUE;
}

/**
 * Applies `rules` (enabled, in id order) to `subject` (`{input, ...result}`), on top of the list
 * entries that matched. A whitelist rule clears the list hits' effect; a later blacklist rule sets it again.
 */
export function decide(rules: readonly CompiledRule[], subject: object, listHits: readonly ListProbe[]): PolicyVerdict {
  let listed: 'black' | 'white' | undefined;
  let valid: boolean | undefined;
  let score: number | undefined;
  const applied: Array<{ id: string; title: string }> = [];
  for (const rule of rules) {
    if (!rule.matches(subject)) continue;
    applied.push({ id: rule.id, title: rule.title });
    const { type } = rule.action;
    switch (type) {
      case 'blacklist':
        listed = 'black';
        break;
      case 'whitelist':
        listed = 'white';
        break;
      case 'mark_valid':
        valid = true;
        break;
      case 'mark_invalid':
        valid = false;
        break;
      case 'overwrite_score':
        // parseRuleDraft requires a score; a stored rule without one leaves the score alone.
        if (rule.action.score !== undefined) score = rule.action.score;
        break;
    }
  }
  return {
    blacklisted: listed === undefined ? listHits.length > 0 : listed === 'black',
    whitelisted: listed === 'white',
    listHits: [...listHits],
    valid,
    score,
    rulesApplied: { total: applied.length, rules: applied },
  };
}
