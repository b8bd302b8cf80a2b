import type { Config } from '../config.ts';
import type { CountryData, DatasetInfo } from '../intel/country/facts.ts';
import type { GulfBank, IbanEngineData, IbanRegistryEntry } from '../intel/iban/types.ts';
import { BIC_CODE_BANKS, GULF_BANKS_VERSION, NATIONAL_BANK_TABLES } from './gulf-banks.ts';
import { IBAN_REGISTRY, readIbanRegistry } from './import/iban-registry.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';
import { readBics, SWIFT_BIC } from './import/swift-bic.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const requireCjs = createRequire(import.meta.url);

/** Countries whose IBAN bank code is the BIC's first four letters (spec "IBAN result"). */
export const BIC_CODE_COUNTRIES = ['KW', 'BH', 'QA', 'JO'] as const;

/** What the IBAN method needs at run time, with the imported datasets swapped in when a new version appears. */
export interface IbanData {
  readonly engine: IbanEngineData;
  readonly datasets: readonly DatasetInfo[];
  /** Reloads the imported datasets now if a manifest changed; true when one did. */
  refresh(): boolean;
  close(): void;
}

type BankTables = ReadonlyMap<string, ReadonlyMap<string, GulfBank>>;

/**
 * KW, BH, QA, JO banks by IBAN bank code (the BIC's first four letters): the curated main banks
 * (src/data/gulf-banks.ts), then every other institution of the imported BIC directory, whose
 * smallest BIC stands for it.
 */
export function bicBankTables(content: string): BankTables {
  const out = new Map<string, Map<string, GulfBank>>();
  for (const [country, banks] of Object.entries(BIC_CODE_BANKS)) out.set(country, new Map(banks.map((b) => [b.code, b])));
  const curated = new Set(Object.entries(BIC_CODE_BANKS).flatMap(([country, banks]) => banks.map((b) => `${country}${b.code}`)));
  const codeCountries: ReadonlySet<string> = new Set(BIC_CODE_COUNTRIES);
  for (const r of readBics(content)) {
    if (!codeCountries.has(r.country)) continue;
    let byCode = out.get(r.country);
    if (!byCode) out.set(r.country, (byCode = new Map<string, GulfBank>()));
    const code = r.bic.slice(0, 4);
    if (curated.has(`${r.country}${code}`)) continue;
    const seen = byCode.get(code);
    if (seen === undefined || (seen.swift !== null && r.bic < seen.swift)) {
      byCode.set(code, { code, name: r.bank, nameAr: null, swift: r.bic, mergedInto: null });
    }
  }
  return out;
}

function ibantoolsVersion(): string {
  // ibantools does not export its package.json: read it beside the resolved entry point.
  try {
    const pkg = JSON.parse(readFileSync(join(dirname(requireCjs.resolve('ibantools')), '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * IBAN data: country facts from the project's country table, the imported `iban-registry`
 * (central bank, membership, currency; empty until `vigil data import`), the national bank tables
 * of SA and AE (in the project) and the imported `swift-bic-codes` for KW, BH, QA and JO.
 */
export function loadIbanData(countries: CountryData, config?: Pick<Config, 'dataDir'>, opts: { reloadMs?: number } = {}): IbanData {
  const dataDir = config?.dataDir ?? null;
  const registry = new ImportedDataset<ReadonlyMap<string, IbanRegistryEntry>>(IBAN_REGISTRY, dataDir, readIbanRegistry, new Map());
  const bics = new ImportedDataset<BankTables>(SWIFT_BIC, dataDir, bicBankTables, bicBankTables(''));
  const refresh = (): boolean => {
    const a = registry.refresh();
    const b = bics.refresh();
    return a || b;
  };
  refresh();
  const stop = dataDir === null ? () => undefined : watchDatasets([registry, bics], opts.reloadMs ?? 5000);
  const staticInfo: DatasetInfo[] = [
    { name: 'ibantools', version: ibantoolsVersion(), source: 'npm ibantools (country specifications, national check digits)', license: 'MIT or MPL-2.0' },
    { name: 'gulf-bank-codes', version: GULF_BANKS_VERSION, source: 'Vigil tables of SA and AE bank codes and the main KW, BH, QA, JO banks (src/data/gulf-banks.ts)', license: 'MIT' },
  ];
  const engine: IbanEngineData = {
    country(code, lang) {
      const c = countries.byCode.get(code);
      if (c === undefined) return null;
      return { name: c.names[lang], currency: c.currency?.code ?? null, isEU: c.isEU, tld: c.tld?.replace(/^\./, '') ?? null };
    },
    get registry() {
      return registry.value;
    },
    banks(country) {
      return NATIONAL_BANK_TABLES.get(country) ?? bics.value.get(country);
    },
  };
  return {
    engine,
    get datasets(): readonly DatasetInfo[] {
      return [...staticInfo, registry.info, bics.info];
    },
    refresh,
    close: stop,
  };
}
