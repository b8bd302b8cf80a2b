/**
 * Test-mode answers: the shape of a real analysis, deterministic per text, with realistic values
 * (about 3 texts in 10 flagged, scores spread like real ones, flagged words taken from the text),
 * computed without the word lists or the model.
 */
import type { TextAnalysis } from './types.ts';

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A fake analysis of `text` for test mode. */
export function fakeAnalysis(text: string): TextAnalysis {
  const h = fnv1a(text);
  const u = (h % 10_000) / 10_000;
  const flagged = u < 0.3;
  const riskScore = Math.round((flagged ? 0.5 + (u / 0.3) * 0.49 : ((u - 0.3) / 0.7) * 0.3) * 1000) / 1000;
  const words = [...new Set(text.match(/\p{L}[\p{L}\p{M}'*]*/gu) ?? [])];
  const count = flagged ? Math.min(words.length, 1 + ((h >>> 16) % 3)) : 0;
  const badWords: string[] = [];
  for (let k = 0; badWords.length < count && k < words.length; k++) {
    const w = words[(h + k * 7919) % words.length];
    if (w !== undefined && !badWords.includes(w)) badWords.push(w);
  }
  return {
    riskScore,
    isSafe: riskScore < 0.5,
    isML: true,
    modelScore: riskScore,
    dictionaryScore: flagged ? 0.6 : 0,
    hits: [],
    badWordCount: badWords.length,
    badWords,
  };
}
