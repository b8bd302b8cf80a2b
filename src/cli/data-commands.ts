import type { Config } from '../config.ts';
import { bundledDisposableStatus } from '../data/domain-lists.ts';
import { datasetStatus, importDirectoryStreaming, rollback } from '../data/import/index.ts';
import { datasetSources, updateAll, updateDataset } from '../data/import/update.ts';
import { MAXMIND_EDITIONS } from '../data/import/maxmind-download.ts';
import { bundledGeoLite2 } from '../data/data-age.ts';
import { cliProgress } from './progress-bar.ts';
import { allowGarbageCollection } from '../data/import/collect-garbage.ts';

export const DATA_USAGE = `  vigil data import DIR                         import DIR/dangerous-domains/* and DIR/disposable-domains/* (domain per line or hosts format)
                                                and DIR/disposable-phone-numbers/number-list.json.gz (receive-SMS numbers)
                                                and DIR/iban-registry/registry.txt, DIR/swift-bic-codes/ (IBAN country facts, Gulf BICs)
                                                and DIR/bin-list/*.csv or DIR/bin-binlist/*.csv (BIN issuers; binlist, iannuttall, venelinkochev, bcbc layouts)
                                                and DIR/tor-exit-nodes/, vpn-datacenter-x4bnet/, cloud-ranges-jhassine/, datacenter-ipcat/,
                                                icloud-private-relay/, asn-bgptools/, asn-names-asn2org/ (IP threat lists, ASN metadata)
                                                and DIR/reshippers/*.csv (package forwarders' addresses and ZIPs; replaces the bundled list)
  vigil data update NAME --from URL|FILE [--sha256 HEX]  download (or copy) one file and import it as a new version of NAME
  vigil data update NAME                        fetch every public source file of NAME (the IP lists and ASN datasets) and import them;
                                                DATA_SOURCES_FILE names a JSON file overriding the sources ({"NAME": [{"url", "file"}]});
                                                geolite2-city and geolite2-asn download from MaxMind with MAXMIND_ACCOUNT_ID and MAXMIND_LICENSE_KEY
  vigil data update --all                       update every dataset that has sources (and GeoLite2 with MaxMind credentials); one
                                                summary at the end, exit 1 if any failed (the others are still updated)
  vigil data status                             the current version of each imported dataset (record count, import
                                                time, builtAt, ageDays), under "bundled" the shipped GeoLite2 databases (build
                                                date, ageDays) and the version and size of each shipped disposable-domain source
  vigil data rollback NAME                      make the previous version of a dataset current again`;

const print = (v: unknown): void => void process.stdout.write(JSON.stringify(v, null, 2) + '\n');

/** `vigil data ...`; returns the exit code, or null for an unknown sub-command (usage). */
export function dataCommand(config: Readonly<Config>, sub: string | undefined, rest: readonly string[]): number | Promise<number> | null {
  // This process does nothing else: full collections between datasets keep its peak low (collect-garbage.ts).
  allowGarbageCollection();
  if (sub === 'update') return updateCommand(config, rest);
  if (sub === 'import') {
    const dir = rest[0];
    if (dir === undefined || rest.length > 1) return null;
    return importDirectoryStreaming(config.dataDir, dir, new Date(), cliProgress()).then((reports) => {
      print(reports.map((r) => ({
        name: r.manifest.name,
        version: r.manifest.version,
        count: r.manifest.count,
        sha256: r.manifest.sha256,
        previous: r.manifest.previous,
        files: r.files,
        rejectedLines: r.rejected,
        ...(r.samples.length > 0 ? { rejectedSamples: r.samples } : {}),
      })));
      return 0;
    });
  }
  if (sub === 'status' && rest.length === 0) {
    // Imported datasets by name (as before), then the shipped sources the imports add to.
    const now = new Date();
    const geolite2 = Object.fromEntries(bundledGeoLite2().map((b) => [b.dataset, { ...b, ageDays: Math.max(0, Math.floor((now.getTime() - Date.parse(b.builtAt)) / 86_400_000)) }]));
    print({ ...datasetStatus(config.dataDir, now), bundled: { ...geolite2, 'disposable-domains': bundledDisposableStatus() } });
    return 0;
  }
  if (sub === 'rollback' && rest.length === 1 && rest[0] !== undefined) {
    print(rollback(config.dataDir, rest[0]));
    return 0;
  }
  return null;
}

/** `vigil data update NAME [--from URL|FILE] [--sha256 HEX]`: progress on stderr, the report on stdout. */
function updateCommand(config: Readonly<Config>, rest: readonly string[]): Promise<number> | null {
  const [name, ...flags] = rest;
  if (name === '--all' && flags.length === 0) return updateAllCommand(config);
  if (name === undefined || name.startsWith('--')) return null;
  let from: string | undefined;
  let sha256: string | undefined;
  for (let i = 0; i < flags.length; i += 2) {
    const value = flags[i + 1];
    if (value === undefined) return null;
    if (flags[i] === '--from') from = value;
    else if (flags[i] === '--sha256') sha256 = value;
    else return null;
  }
  // Without --from only datasets with default sources can update (the others: usage).
  if (from === undefined && datasetSources(name, config.dataSourcesFile) === null && !(config.maxmind !== undefined && MAXMIND_EDITIONS[name] !== undefined)) return null;
  return updateDataset(config.dataDir, name, { from, sha256, sourcesFile: config.dataSourcesFile, maxmind: config.maxmind, progress: cliProgress() }).then((r) => {
    print({ name: r.manifest.name, version: r.manifest.version, count: r.manifest.count, sha256: r.manifest.sha256, previous: r.manifest.previous, files: r.files, rejectedLines: r.rejected });
    return 0;
  });
}

/** `vigil data update --all`: every updatable dataset, the summary on stdout, exit 1 when any failed. */
async function updateAllCommand(config: Readonly<Config>): Promise<number> {
  const outcomes = await updateAll(config.dataDir, { sourcesFile: config.dataSourcesFile, maxmind: config.maxmind, progress: cliProgress() });
  const failed = outcomes.filter((o) => o.status === 'failed');
  print({ updated: outcomes.length - failed.length, failed: failed.length, datasets: outcomes });
  if (failed.length > 0) process.stderr.write(`vigil: ${failed.length} of ${outcomes.length} datasets failed to update: ${failed.map((f) => f.name).join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}
