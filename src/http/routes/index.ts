import type { CountryData } from '../../data/countries.ts';
import type { DomainData } from '../../data/domain-data.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ipEndpoint } from './ip.ts';
import { countryEndpoint } from './lookup-country.ts';
import { domainEndpoint } from './lookup-domain.ts';
import { profanityEndpoint, type TextData } from './scoring-profanity.ts';
import { emailEndpoint } from './scoring-email.ts';
import type { EmailData } from '../../data/email-lists.ts';

export interface EngineData {
  countries: CountryData;
  /** Word lists and classifier of the profanity engine. */
  text: TextData;
  /** Domain lists (disposable, forwarding, imported dangerous) and the DNS/RDAP client. */
  domains: DomainData;
  /** Webmail, role, academic and typo-provider lists of the email engine. */
  email: EmailData;
}

/** Every API endpoint; the shared test matrix runs its checks against each one listed here. */
export function buildEndpoints(data: EngineData): EndpointDef[] {
  return [ipEndpoint, countryEndpoint(data.countries), profanityEndpoint(data.text), domainEndpoint(data.domains), emailEndpoint(data.email, data.domains)];
}
