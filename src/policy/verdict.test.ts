import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyVerdict } from './types.ts';
import { writeVerdict } from './verdict.ts';

const base: PolicyVerdict = { blacklisted: false, whitelisted: false, listHits: [], valid: undefined, score: undefined, rulesApplied: { total: 0, rules: [] } };

describe('writeVerdict', () => {
  it('writes custom_rules_applied and blacklisted where the endpoint keeps them', () => {
    const security: Record<string, unknown> = { isTor: false };
    const result: Record<string, unknown> = { ip: '1.2.3.4', security };
    const rulesApplied = { total: 1, rules: [{ id: 'CR101', title: 't' }] };
    writeVerdict(result, { ...base, blacklisted: true, rulesApplied }, { listed: security, rulesCopy: security });
    assert.deepEqual(result.custom_rules_applied, rulesApplied);
    assert.deepEqual(security, { isTor: false, blacklisted: true, custom_rules_applied: rulesApplied });
    assert.equal(result.blacklisted, undefined);
  });

  it('a rule marking invalid sets the field and a reason; valid clears the reason', () => {
    const result: Record<string, unknown> = { isValid: true, reason: '' };
    writeVerdict(result, { ...base, valid: false }, { validity: { field: 'isValid', reasonField: 'reason' } });
    assert.equal(result.isValid, false);
    assert.match(String(result.reason), /custom rule/);
    const invalid: Record<string, unknown> = { isValid: false, reason: 'Luhn check failed' };
    writeVerdict(invalid, { ...base, valid: true }, { validity: { field: 'isValid', reasonField: 'reason' } });
    assert.deepEqual(invalid, { isValid: true, reason: '', custom_rules_applied: base.rulesApplied });
  });

  it('leaves validity and score alone when no rule set them, and overwrites the score when one did', () => {
    const result: Record<string, unknown> = { isValid: true, score: 1 };
    writeVerdict(result, base, { validity: { field: 'isValid' }, score: 'score' });
    assert.equal(result.isValid, true);
    assert.equal(result.score, 1);
    writeVerdict(result, { ...base, score: 3 }, { score: 'score' });
    assert.equal(result.score, 3);
  });
});
