import type { CountryData } from '../../data/countries.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ipEndpoint } from './ip.ts';
import { countryEndpoint } from './lookup-country.ts';
import { profanityEndpoint, type TextData } from './scoring-profanity.ts';

export interface EngineData {
  countries: CountryData;
  /** Word lists and classifier of the profanity engine. */
  text: TextData;
}

/** Every API endpoint; the shared test matrix runs its checks against each one listed here. */
export function buildEndpoints(data: EngineData): EndpointDef[] {
  return [ipEndpoint, countryEndpoint(data.countries), profanityEndpoint(data.text)];
}
