import type { TextData } from '../http/routes/scoring-profanity.ts';
import { loadTextLexicon, textLexiconDatasets } from './text-lexicon.ts';
import { loadTextModel } from './text-model.ts';

/** The profanity engine's word lists and classifier, with the datasets behind them. */
export function loadTextData(): TextData {
  const { model, datasets } = loadTextModel();
  return { engine: { lexicon: loadTextLexicon(), model }, datasets: [...textLexiconDatasets(), ...datasets] };
}
