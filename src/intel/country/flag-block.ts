import type { FlagBlock } from './types.ts';

// Regional indicator symbol letter A; a flag emoji is the pair for the code's two letters.
const REGIONAL_INDICATOR_A = 0x1f1e6;

/** The flag emoji of an upper-case alpha-2 code ("DE" → 🇩🇪). */
export function flagEmoji(code: string): string {
  return String.fromCodePoint(...[...code].map((c) => REGIONAL_INDICATOR_A + c.charCodeAt(0) - 65));
}

/** Code points of the flag emoji as "U+1F1E9 U+1F1EA". */
export function flagUnicode(code: string): string {
  return [...code].map((c) => `U+${(REGIONAL_INDICATOR_A + c.charCodeAt(0) - 65).toString(16).toUpperCase()}`).join(' ');
}

/**
 * The flag block for upper-case alpha-2 `code`, with image URLs under `baseUrl` (the service's
 * own address; images are served by the /flags routes from svg-country-flags).
 */
export function flagBlock(code: string, baseUrl: string): FlagBlock {
  let end = baseUrl.length;
  while (end > 0 && baseUrl[end - 1] === '/') end--;
  const base = baseUrl.slice(0, end);
  const file = code.toLowerCase();
  return {
    emoji: flagEmoji(code),
    unicode: flagUnicode(code),
    png: {
      '1000px': `${base}/flags/png/1000px/${file}.png`,
      '250px': `${base}/flags/png/250px/${file}.png`,
      '100px': `${base}/flags/png/100px/${file}.png`,
    },
    svg: `${base}/flags/svg/${file}.svg`,
  };
}
