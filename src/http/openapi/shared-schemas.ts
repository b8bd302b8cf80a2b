/**
 * Blocks that several answers share, published once under components.schemas and referenced with ref().
 * Field lists follow the engines' result types (src/intel/<subject>/types.ts).
 */
import type { JsonSchema } from '../endpoint.ts';
import { arr, bool, int, nullable, num, obj, ref, str } from './schema-kit.ts';

const time = (what: string) => nullable(str(`${what}, local HH:mm:ss; null when it does not happen that day`));

export const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  CustomRulesApplied: obj(
    { total: int('How many of the account\'s custom rules matched'), rules: arr(obj({ id: str('Rule id such as CR104'), title: str() })) },
    { description: 'The account\'s custom rules that matched, in id order (the last one\'s action wins).' },
  ),
  Explanation: obj(
    {
      // Each engine explains in its own terms (points, weights, signals): open beyond `source`.
      contributions: arr(
        { type: 'object', properties: { source: str('Such as engine, risk, base, rule, model, blacklist or custom_rule'), id: str(), points: num() }, additionalProperties: true },
        'Each contribution to a score or flag; where they carry points, the points sum to the score',
      ),
      datasets: arr(obj({ name: str(), version: str(), source: str() }), 'The datasets the answer was built from'),
    },
    { optional: ['datasets'], description: 'Present with `explain=yes` only.' },
  ),
  Currency: obj({ currencyName: str(), currencyCode: str('ISO 4217'), currencySymbol: str() }),
  Language: obj({ name: str(), code: str('ISO 639-1'), native: str() }),
  Flag: obj({
    emoji: str(), unicode: str('Code points, such as U+1F1E9 U+1F1EA'),
    png: obj({ '1000px': str('URL'), '250px': str('URL'), '100px': str('URL') }),
    svg: str('URL'),
  }),
  Timezone: obj({
    name: str('IANA zone name'), abbreviation: str(), offset: int('Seconds from UTC'), currentTime: str('Local HH:mm:ss'),
    currentTimestamp: int('UNIX seconds'), isDST: bool(),
    sunInfo: obj({
      sunset: time('Sunset'), sunrise: time('Sunrise'), transit: str('Solar noon, local HH:mm:ss'),
      civilTwilightBegin: time('Civil dawn'), civilTwilightEnd: time('Civil dusk'),
      nauticalTwilightBegin: time('Nautical dawn'), nauticalTwilightEnd: time('Nautical dusk'),
      astronomicalTwilightBegin: time('Astronomical dawn'), astronomicalTwilightEnd: time('Astronomical dusk'),
      dayLength: str('HH:mm:ss'),
    }),
  }),
};

/** The common `custom_rules_applied` block, and `explanation` (explain=yes) for object answers. */
export const customRules = ref('CustomRulesApplied');
export const explanation = ref('Explanation');
