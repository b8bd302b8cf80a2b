/**
 * Test-mode IP sources: realistic answers, deterministic per address, without the network and
 * without revealing where the address really is. Each public address is mapped by a hash onto one
 * of a few sample addresses whose real GeoLite2 record and AS are used (so every field has the
 * shape and quality of a live answer), and its security flags are drawn from the same hash with
 * rates that let a test key see each flag: about 1 in 10 Tor, 1 in 8 VPN, 1 in 5 hosting,
 * 1 in 12 Private Relay, 1 in 16 crawler. The address, its type, number and bogon state stay real.
 */
import { createHash } from 'node:crypto';
import { NO_CONTACTS, type IpSources, type ThreatFlags } from './types.ts';

/** Public addresses with a city-level GeoLite2 record, one per region of the world. */
export const TEST_MODE_SAMPLES: readonly string[] = [
  '81.2.69.160', '89.160.20.112', '216.160.83.56', '2.125.160.216', '31.13.64.1', '84.17.46.1',
  '195.201.1.1', '103.86.96.100', '94.200.1.1', '212.138.1.1', '2a02:908::1', '24.48.0.1', '101.100.1.1', '62.149.128.1',
];

/** 32 bits of a SHA-256 of the address, salted per purpose. */
function draw(ip: string, purpose: string): number {
  return createHash('sha256').update(`${purpose}\0${ip}`).digest().readUInt32BE(0);
}

function flagsFor(ip: string): ThreatFlags {
  const d = (purpose: string, oneIn: number): boolean => draw(ip, purpose) % oneIn === 0;
  const isTor = d('tor', 10);
  const vpn = !isTor && d('vpn', 8);
  const isHosting = vpn || d('hosting', 5);
  const isRelay = !isTor && !vpn && d('relay', 12);
  const sources: ThreatFlags['sources'] = [];
  const mark = (flag: 'tor' | 'vpn' | 'hosting' | 'relay', on: boolean) => {
    if (on) sources.push({ flag, dataset: 'test-mode', version: 'deterministic', detail: 'drawn from a hash of the address' });
  };
  mark('tor', isTor);
  mark('vpn', vpn);
  mark('hosting', isHosting);
  mark('relay', isRelay);
  return { isTor, isProxy: isTor || vpn, proxyType: isTor ? 'TOR' : vpn ? 'VPN' : null, isHosting, isRelay, sources };
}

export function fakeIpSources(live: IpSources): IpSources {
  const sample = (ip: string): string => TEST_MODE_SAMPLES[draw(ip, 'place') % TEST_MODE_SAMPLES.length]!;
  return {
    city: (ip) => live.city(sample(ip)),
    asnOf: (ip) => live.asnOf(sample(ip)),
    threats: (ip) => flagsFor(ip),
    asnFacts: (asn, org) => live.asnFacts(asn, org),
    asnType: (asn, org) => live.asnType(asn, org),
    asnContacts: () => NO_CONTACTS,
    crawler: (ip) => (draw(ip, 'crawler') % 16 === 0 ? 'Test crawler' : null),
    crawlerVersion: 'test-mode',
    zipFor: (cc, city, lat, lon) => live.zipFor(cc, city, lat, lon),
    get datasets() {
      return live.datasets;
    },
  };
}
