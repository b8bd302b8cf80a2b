import type { DisposableFacts } from './types.ts';

/**
 * Test mode's receive-SMS facts: the imported list is not read (answers must not change with
 * imports); a number whose last four digits are 0000 is a recently listed one, so integrations
 * can exercise the disposable path deterministically.
 */
export function fakeDisposableFacts(digits: string): DisposableFacts {
  return digits.endsWith('0000') ? { listedOn: '2025-01-01', recent: true, blockRecent: 1 } : { listedOn: null, recent: false, blockRecent: 0 };
}
