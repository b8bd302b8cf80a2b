import type { Config } from '../config.ts';
import type { EngineData } from '../http/routes/index.ts';
import { loadDomainData } from './domain-data.ts';
import { loadCountryData } from './countries.ts';
import { loadEmailData } from './email-lists.ts';
import { loadTextData } from './text-data.ts';
import { loadPhoneData } from './phone-data.ts';
import { loadIbanData } from './iban-data.ts';
import { loadBinData } from './bin-data.ts';
import { loadIpData } from './ip-data.ts';
import { loadReshipperData } from './reshipper-data.ts';

/**
 * Loads every dataset the engines need at start. With the configuration, imported datasets come
 * from DATA_DIR and the domain checks use the network as configured; without it (shared test
 * data) the network is off and only npm-shipped data is loaded.
 */
export function loadEngineData(config?: Readonly<Config>): EngineData {
  const countries = loadCountryData();
  return { countries, text: loadTextData(), domains: loadDomainData(config), email: loadEmailData(), phone: loadPhoneData(config), iban: loadIbanData(countries, config), bins: loadBinData(config), ip: loadIpData(config), reshippers: loadReshipperData(config) };
}
