import type { DatasetInfo } from '../../intel/country/facts.ts';
import { analyzeText, UNSAFE_FROM, type TextEngine } from '../../intel/text/analyze.ts';
import { findHits } from '../../intel/text/dictionary.ts';
import { fakeAnalysis } from '../../intel/text/fake.ts';
import { codePointLength, normalize } from '../../intel/text/normalize.ts';
import type { TextAnalysis } from '../../intel/text/types.ts';
import { maskText } from '../../policy/events/mask.ts';
import type { EndpointPolicy, PolicySubject } from '../../policy/types.ts';
import type { RequestContext } from '../context.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ApiError } from '../errors.ts';
import { readParam } from '../params.ts';
import { NoteKey, type AnswerNotes } from '../answer-notes.ts';

/** Spec "Limits": counted in Unicode code points (docs/api-decisions.md). */
export const MAX_TEXT_CHARS = 10_000;

export interface TextData {
  readonly engine: TextEngine;
  readonly datasets: readonly DatasetInfo[];
}

/** The answer (spec "Profanity result"; decisions.md for `badWords` and `scoreOnly`). */
export type ProfanityAnswer =
  | { isML: boolean; text: string; totalBadWords: number | null; riskScore: number; isSafe: boolean; badWords?: string[] }
  | { riskScore: number; isSafe: boolean; badWords?: string[] };

/** The validated text: 1 to 10,000 code points, not only blanks, given once (else 129). */
export function readText(query: Readonly<Record<string, unknown>>): string {
  const text = readParam(query, 'text', 129);
  if (text === undefined) throw new ApiError(129, 'The "text" parameter is required: send 1 to 10,000 characters.');
  if (text.trim() === '') throw new ApiError(129, 'The text is empty or only blanks: send 1 to 10,000 characters.');
  const n = codePointLength(text);
  if (n > MAX_TEXT_CHARS) {
    throw new ApiError(129, `The text has ${n.toLocaleString('en-US')} characters; at most 10,000 are accepted (characters are Unicode code points).`);
  }
  return text;
}

/** `yes` in any case means yes; anything else (or nothing) means no, like `explain`. Repeated: 104. */
function flag(query: Readonly<Record<string, unknown>>, name: string): boolean {
  return readParam(query, name, 104)?.toLowerCase() === 'yes';
}

function shape(text: string, a: TextAnalysis, scoreOnly: boolean, listBadWords: boolean): ProfanityAnswer {
  const list = listBadWords ? { badWords: [...a.badWords] } : {};
  if (scoreOnly) return { riskScore: a.riskScore, isSafe: a.isSafe, ...list };
  return { isML: a.isML, text, totalBadWords: a.isML ? a.badWordCount : null, riskScore: a.riskScore, isSafe: a.isSafe, ...list };
}

/** GET /scoring/profanity: dictionary and model scoring of a text. */
export function profanityEndpoint(data: TextData): EndpointDef {
  // The flagged words of each live answer, for its event: found once, not again in the policy stage.
  const analysisOf = new NoteKey<TextAnalysis>('profanity analysis');
  const answer = (ctx: RequestContext, fake: boolean): ProfanityAnswer => {
    const text = readText(ctx.query);
    const scoreOnly = flag(ctx.query, 'scoreOnly');
    const listBadWords = flag(ctx.query, 'listBadWords');
    const analysis = fake ? fakeAnalysis(text) : analyzeText(data.engine, text);
    const out = shape(text, analysis, scoreOnly, listBadWords);
    if (!fake) ctx.notes.set(analysisOf, out, analysis);
    return out;
  };

  const policy: EndpointPolicy = {
    group: null,
    subjects(answerData: unknown, input: Readonly<Record<string, unknown>>, notes: AnswerNotes): PolicySubject[] {
      if (typeof answerData !== 'object' || answerData === null) return [];
      const result = answerData as Record<string, unknown>;
      const risk = typeof result.riskScore === 'number' ? result.riskScore : 0;
      const isSafe = result.isSafe === true;
      const text = typeof input.text === 'string' ? input.text : '';
      return [{
        // The text itself is not passed on: text has no custom rules, and only its masked form is stored.
        input: {},
        result,
        lists: [],
        apply: () => undefined,
        event() {
          if (risk < UNSAFE_FROM) return null;
          const analysis = notes.get(analysisOf, result);
          const hits = analysis?.hits ?? findHits(data.engine.lexicon, normalize(text));
          return {
            kind: 'profanity',
            risk,
            subject: maskText(text),
            summary: {
              riskScore: risk, isSafe, totalBadWords: hits.length,
              // The two parts the risk combines (docs/text-model.md "Score"; not a sum), for the console and webhook receivers.
              ...(analysis && { explanation: { contributions: [
                { source: 'dictionary', signal: 'word lists and abuse patterns', weight: analysis.dictionaryScore, hits: hits.length },
                ...(analysis.modelScore === null ? [] : [{ source: 'model', signal: 'text model', weight: analysis.modelScore }]),
              ] } }),
            },
          };
        },
      }];
    },
  };

  return {
    operation: 'scoring.profanity',
    method: 'GET',
    summary: 'Profanity and abuse score of a text',
    description:
      'Word lists in 8 languages (obfuscations, leetspeak, separators, confusable letters and accents resolved; whitelisted words such as ' +
      '`Scunthorpe` stay clean) and, for text mostly in Latin letters, a classifier trained on labelled tweets. `riskScore` 0 (clean) to 1; ' +
      '`isSafe` is false from 0.5. `scoreOnly=yes` returns only `riskScore` and `isSafe`; `listBadWords=yes` adds `badWords`. ' +
      'Text of 1 to 10,000 characters (Unicode code points), else 129.',
    query: {
      text: { type: 'string', required: true, description: 'The text, 1 to 10,000 characters (Unicode code points)', example: 'have a nice day' },
      scoreOnly: { type: 'string', description: '`yes`: answer only riskScore and isSafe (default no)', example: 'no' },
      listBadWords: { type: 'string', description: '`yes`: add `badWords`, the flagged words as written (default no)', example: 'yes' },
    },
    sample: { text: 'have a nice day' },
    datasets: data.datasets,
    policy,
    live: (ctx) => answer(ctx, false),
    test: (ctx) => answer(ctx, true),
  };
}
