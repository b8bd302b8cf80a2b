import type { CountryData } from '../../data/countries.ts';
import type { DomainData } from '../../data/domain-data.ts';
import type { EndpointDef } from '../endpoint.ts';
import { ipEndpoint } from './ip.ts';
import { countryEndpoint } from './lookup-country.ts';
import { domainEndpoint } from './lookup-domain.ts';
import { profanityEndpoint, type TextData } from './scoring-profanity.ts';
import { emailEndpoint } from './scoring-email.ts';
import type { EmailData } from '../../data/email-lists.ts';
import type { PhoneData } from '../../data/phone-data.ts';
import { phoneEndpoint } from './scoring-phone.ts';
import type { IbanData } from '../../data/iban-data.ts';
import { ibanEndpoint } from './lookup-iban.ts';
import type { BinData } from '../../data/bin-data.ts';
import { binEndpoint } from './lookup-bin.ts';
import type { IpData } from '../../data/ip-data.ts';
import { bulkIpEndpoint, geoipEndpoint, ipEngine, lookupIpEndpoint, threatsEndpoint } from './lookup-ip.ts';
import { asnEndpoint } from './lookup-asn.ts';
import type { Learning } from '../../learning/index.ts';
import { paymentEndpoint } from './scoring-payment.ts';
import { bulkFeedbackEndpoint, eventFeedbackEndpoint, paymentFeedbackEndpoint } from './feedback.ts';
import { usersDeleteEndpoint } from './users-delete.ts';
import type { ReshipperData } from '../../data/reshipper-data.ts';

export interface EngineData {
  countries: CountryData;
  /** Word lists and classifier of the profanity engine. */
  text: TextData;
  /** Domain lists (disposable, forwarding, imported dangerous) and the DNS/RDAP client. */
  domains: DomainData;
  /** Webmail, role, academic and typo-provider lists of the email engine. */
  email: EmailData;
  /** Carrier prefixes and the imported receive-SMS list of the phone engine. */
  phone: PhoneData;
  /** ibantools specs, the imported IBAN registry and BIC directory, and the SA/AE bank-code tables. */
  iban: IbanData;
  /** The imported BIN dataset (issuer and country by prefix). */
  bins: BinData;
  /** GeoLite2 City and ASN, imported threat/ASN/postal lists, crawler ranges and the RDAP client for ASNs. */
  ip: IpData;
  /** Package forwarders' warehouses and ZIPs (bundled list, or the imported one that replaced it). */
  reshippers: ReshipperData;
}

/**
 * Every API endpoint; the shared test matrix runs its checks against each one listed here. Without
 * `learning` (an inventory for docs and tests) payment scoring, feedback and deletion answer 115.
 */
export function buildEndpoints(data: EngineData, learning?: Learning): EndpointDef[] {
  const ip = ipEngine(data.ip.sources, data.countries, learning?.labels);
  const ipDatasets = () => [...data.ip.datasets, ...data.countries.datasets];
  return [
    ipEndpoint,
    geoipEndpoint(ip, ipDatasets),
    lookupIpEndpoint(ip, ipDatasets),
    bulkIpEndpoint(ip, ipDatasets),
    threatsEndpoint(ip, ipDatasets),
    asnEndpoint(data.ip.sources, data.ip.asns, data.ip.budgetMs, () => data.ip.datasets),
    countryEndpoint(data.countries), profanityEndpoint(data.text), domainEndpoint(data.domains), emailEndpoint(data.email, data.domains, learning?.labels), phoneEndpoint(data.phone, learning?.labels), ibanEndpoint(data.iban), binEndpoint(data.bins, data.countries, learning?.labels),
    paymentEndpoint(learning), paymentFeedbackEndpoint(learning), eventFeedbackEndpoint(learning), bulkFeedbackEndpoint(learning), usersDeleteEndpoint(learning),
  ];
}
