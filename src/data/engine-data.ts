import type { EngineData } from '../http/routes/index.ts';
import { loadCountryData } from './countries.ts';

/** Loads every dataset the engines need at start (npm-shipped data; imported data comes later). */
export function loadEngineData(): EngineData {
  return { countries: loadCountryData() };
}
