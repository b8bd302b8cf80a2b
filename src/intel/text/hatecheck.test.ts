/**
 * HateCheck (Röttger et al., ACL 2021; ../shared/data/hatecheck, CC BY 4.0) as a regression test:
 * the pass rate of each functionality must stay at what the engine achieved when this test was
 * written, less 5 points. Never trained on (docs/text-model.md "HateCheck"). Skipped where the
 * shared data is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { loadTextLexicon } from '../../data/text-lexicon.ts';
import { loadTextModel } from '../../data/text-model.ts';
import { analyzeText, type TextEngine } from './analyze.ts';
import { parseCsv } from './train.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const DATA = resolve(ROOT, '../shared/data/hatecheck/test_suite_cases.csv');

/** Functionalities whose cases must stay safe (SOURCE.md); every `*_h` and `profanity_nh` must be flagged. */
const SAFE = new Set(['ident_neutral_nh', 'ident_pos_nh', 'negate_neg_nh', 'counter_quote_nh', 'counter_ref_nh', 'slur_homonym_nh', 'slur_reclaimed_nh']);
/** Judgement calls (abuse of non-protected targets): reported, not tested. */
const JUDGEMENT = new Set(['target_obj_nh', 'target_indiv_nh', 'target_group_nh']);

/** Pass rates (%) measured when this test was written (docs/text-model.md lists them all). */
const ACHIEVED: Readonly<Record<string, number>> = {
  counter_quote_nh: 91.3, counter_ref_nh: 83.7, derog_dehum_h: 79.3, derog_impl_h: 40, derog_neg_attrib_h: 85, derog_neg_emote_h: 80,
  ident_neutral_nh: 100, ident_pos_nh: 100, negate_neg_nh: 100, negate_pos_h: 95, phrase_opinion_h: 68.4, phrase_question_h: 45, profanity_h: 95,
  profanity_nh: 87, ref_subs_clause_h: 85, ref_subs_sent_h: 52.6, slur_h: 84.7, slur_homonym_nh: 93.3, slur_reclaimed_nh: 28.4,
  spell_char_del_h: 72.9, spell_char_swap_h: 81.2, spell_leet_h: 79.2, spell_space_add_h: 81.5, spell_space_del_h: 55.3, threat_dir_h: 73.7,
  threat_norm_h: 55,
};
const MARGIN = 5;

describe('HateCheck by functionality', { skip: existsSync(DATA) ? false : `no HateCheck data at ${DATA}` }, () => {
  const engine: TextEngine = { lexicon: loadTextLexicon(), model: loadTextModel().model };
  const rows = existsSync(DATA) ? parseCsv(readFileSync(DATA, 'utf8')) : [];
  const header = rows[0] ?? [];
  const F = header.indexOf('functionality');
  const T = header.indexOf('test_case');
  const byFunc = new Map<string, { pass: number; total: number }>();
  for (const r of rows.slice(1)) {
    const f = r[F];
    const text = r[T];
    if (!f || !text) continue;
    const flagged = !analyzeText(engine, text).isSafe;
    const e = byFunc.get(f) ?? { pass: 0, total: 0 };
    e.total++;
    if (JUDGEMENT.has(f) ? flagged : flagged !== SAFE.has(f)) e.pass++;
    byFunc.set(f, e);
  }

  it('reads the 3,728 cases in 29 functionalities', () => {
    assert.equal([...byFunc.values()].reduce((s, e) => s + e.total, 0), 3728);
    assert.equal(byFunc.size, 29);
  });
  // Functionalities below the margin are reported only: a floor of 0 tests nothing.
  for (const [f, achieved] of Object.entries(ACHIEVED).filter(([, a]) => a > MARGIN)) {
    it(`${f}: at least ${Math.max(0, achieved - MARGIN)}% pass (achieved ${achieved}%)`, () => {
      const e = byFunc.get(f);
      assert.ok(e, `no cases for ${f}`);
      const rate = (100 * e.pass) / e.total;
      assert.ok(rate >= achieved - MARGIN, `${f}: ${rate.toFixed(1)}% < ${achieved - MARGIN}%`);
    });
  }
  it('keeps every neutral and positive mention of a group safe', () => {
    for (const f of ['ident_neutral_nh', 'ident_pos_nh']) {
      const e = byFunc.get(f);
      assert.ok(e && e.pass === e.total, f);
    }
  });
});
