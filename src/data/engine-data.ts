import type { EngineData } from '../http/routes/index.ts';
import { loadCountryData } from './countries.ts';
import { loadTextData } from './text-data.ts';

/** Loads every dataset the engines need at start (npm-shipped data; imported data comes later). */
export function loadEngineData(): EngineData {
  return { countries: loadCountryData(), text: loadTextData() };
}
