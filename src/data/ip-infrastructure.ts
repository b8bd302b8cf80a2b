import type { DatasetInfo } from '../intel/country/facts.ts';
import { IpLabelIndex } from './ip-label-index.ts';

/**
 * Two small curated lists that the imported IP lists miss (issue 25), shipped with the code because
 * they change rarely and each entry is a public fact with its source named here and in docs/ip.md.
 * Reviewed 2026-11-27; a change to either is a CHANGELOG entry.
 */
export const IP_INFRASTRUCTURE_VERSION = '2026-11-27';

/**
 * Anycast public DNS resolvers: every address of these prefixes is a resolver, never a person's
 * connection, so it is hosting. Prefixes as the operators publish their service addresses:
 * - Cloudflare 1.1.1.1 / 1.0.0.1 / 2606:4700:4700::1111: developers.cloudflare.com/1.1.1.1/ip-addresses/
 * - Google Public DNS 8.8.8.8 / 8.8.4.4 / 2001:4860:4860::8888: developers.google.com/speed/public-dns/docs/using
 * - Quad9 9.9.9.9 / 149.112.112.112 / 2620:fe::fe: quad9.net/service/service-addresses-and-features
 * - Cisco OpenDNS 208.67.222.222 / 208.67.220.220 (208.67.216.0/21, AS36692's announcement) and
 *   2620:119:35::35 / 2620:119:53::53: opendns.com setup guide, Cisco Umbrella documentation
 * - AdGuard DNS 94.140.14.14 / 94.140.15.15: adguard-dns.io "public DNS" page
 * - Yandex DNS 77.88.8.8 / 77.88.8.1 (and its safe and family addresses in 77.88.8.0/24): dns.yandex.com
 * - Lumen (Level 3) 4.2.2.1 to 4.2.2.6, long-standing open resolvers (the addresses only: AS3356 is a carrier)
 */
export const ANYCAST_RESOLVER_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['1.1.1.0/24', 'Cloudflare public DNS resolver'],
  ['1.0.0.0/24', 'Cloudflare public DNS resolver'],
  ['2606:4700:4700::/48', 'Cloudflare public DNS resolver'],
  ['8.8.8.0/24', 'Google Public DNS resolver'],
  ['8.8.4.0/24', 'Google Public DNS resolver'],
  ['2001:4860:4860::/48', 'Google Public DNS resolver'],
  ['9.9.9.0/24', 'Quad9 public DNS resolver'],
  ['149.112.112.0/24', 'Quad9 public DNS resolver'],
  ['2620:fe::/48', 'Quad9 public DNS resolver'],
  ['208.67.216.0/21', 'Cisco OpenDNS public DNS resolver'],
  ['2620:119:35::/48', 'Cisco OpenDNS public DNS resolver'],
  ['2620:119:53::/48', 'Cisco OpenDNS public DNS resolver'],
  ['94.140.14.0/24', 'AdGuard public DNS resolver'],
  ['94.140.15.0/24', 'AdGuard public DNS resolver'],
  ['77.88.8.0/24', 'Yandex public DNS resolver'],
  ...[1, 2, 3, 4, 5, 6].map((n) => [`4.2.2.${n}/32`, 'Lumen (Level 3) public DNS resolver'] as const),
];

/**
 * ASNs that carry only anycast infrastructure (DNS resolvers, CDN and DDoS-protection edges), no
 * subscribers: an address in them is a server, so it is hosting and the AS type is hosting. Each is
 * in bgp.tools' `cdn` or `anycast` tag list and its class is Content (the imported asn-bgptools
 * data); that tag list alone is not used, since it also tags access ISPs that run their own CDN
 * (Comcast, Korea Telecom, China Telecom, Cox). Google (AS15169) and Amazon are hosting already
 * through X4BNet and the cloud ranges.
 */
export const ANYCAST_INFRASTRUCTURE_ASNS: ReadonlyMap<number, string> = new Map([
  [13335, 'Cloudflare (CDN, 1.1.1.1 resolver)'],
  [19281, 'Quad9 (public DNS resolver)'],
  [42, 'WoodyNet / Packet Clearing House (anycast DNS, Quad9 nodes)'],
  [3856, 'Packet Clearing House (anycast DNS)'],
  [36692, 'Cisco OpenDNS (public DNS resolver)'],
  [54113, 'Fastly (CDN)'],
  [20940, 'Akamai International (CDN)'],
  [16625, 'Akamai Technologies (CDN)'],
  [32787, 'Akamai Prolexic (DDoS protection)'],
  [15133, 'Edgecast (CDN)'],
  [22822, 'Edgio / Limelight (CDN)'],
  [19551, 'Imperva Incapsula (CDN, DDoS protection)'],
  [30081, 'CacheFly (CDN)'],
  [200325, 'Bunny.net (CDN)'],
  [199524, 'Gcore (CDN)'],
  [36408, 'CDNetworks (CDN)'],
]);

/**
 * ASNs registered to consumer VPN operators (names as in bgp.tools' ASN table, the imported
 * asn-bgptools data): every address they announce is a VPN server, so an address is a VPN by its AS
 * even where X4BNet's range list misses that prefix (Mullvad's AS39351 was a VPN on one address
 * and not on another). X4BNet's own VPN-ASN list (vpn-asn.txt: NordVPN's AS136787 and AS207137,
 * Surfshark's AS209854, ProtonVPN's AS208172, ...) keeps applying beside this one.
 * - Mullvad: 31173 Services AB (AS39351, AS214813) runs Mullvad's owned servers ("31173" is the
 *   provider of its owned servers in mullvad.net/servers), Mullvad VPN AB (AS216025).
 * - PacketHub S.A., the operator behind NordVPN's servers (X4BNet lists two of its ASNs as NordVPN):
 *   AS136787, AS141039, AS147049, AS207137, AS272096.
 * - IVPN Limited (AS203619), Windscribe (AS397540), IPVanish, Inc. (AS46253).
 * - ASNs registered under a VPN product's name: 10VPN Research Network (AS209762, AS215905),
 *   FREE UNLIMITED VPN (AS213163), FREE VPN APP (AS216059), ASTROVPN (AS210691), IPLOCKVPN.COM
 *   (AS394104), Castle VPN (AS397282), HardenedVPN.com (AS398271), GAMING VPN (AS154050).
 * Left out on purpose: Proton AG's other ASNs (mail and web too), M247, Datacamp/CDN77 and other
 * hosts that rent servers to VPNs and to everyone else.
 */
export const VPN_OPERATOR_ASNS: ReadonlyMap<number, string> = new Map([
  [39351, 'Mullvad (31173 Services AB)'],
  [214813, 'Mullvad (31173 Services AB)'],
  [216025, 'Mullvad VPN AB'],
  [136787, 'NordVPN (PacketHub S.A.)'],
  [141039, 'NordVPN (PacketHub S.A.)'],
  [147049, 'NordVPN (PacketHub S.A.)'],
  [207137, 'NordVPN (PacketHub S.A.)'],
  [272096, 'NordVPN (PacketHub S.A.)'],
  [203619, 'IVPN Limited'],
  [397540, 'Windscribe'],
  [46253, 'IPVanish, Inc.'],
  [209762, '10VPN Research Network'],
  [215905, '10VPN Research Network'],
  [213163, 'FREE UNLIMITED VPN LTD'],
  [216059, 'FREE VPN APP LIMITED'],
  [210691, 'ASTROVPN LLC'],
  [394104, 'IPLOCKVPN.COM'],
  [397282, 'Castle VPN'],
  [398271, 'HardenedVPN.com LLC'],
  [154050, 'GAMING VPN PTY LTD'],
]);

export const ANYCAST_INFRASTRUCTURE_DATASET = 'anycast-infrastructure';
export const VPN_OPERATOR_ASNS_DATASET = 'vpn-operator-asns';

export const IP_INFRASTRUCTURE_DATASETS: readonly DatasetInfo[] = Object.freeze([
  {
    name: ANYCAST_INFRASTRUCTURE_DATASET,
    version: IP_INFRASTRUCTURE_VERSION,
    source: 'Vigil curated list (src/data/ip-infrastructure.ts): public DNS resolver prefixes from the operators\' own pages; anycast and CDN ASNs from bgp.tools\' cdn/anycast tags',
    license: 'facts, no licence needed',
  },
  {
    name: VPN_OPERATOR_ASNS_DATASET,
    version: IP_INFRASTRUCTURE_VERSION,
    source: 'Vigil curated list (src/data/ip-infrastructure.ts): ASNs registered to VPN operators, names from bgp.tools\' ASN table',
    license: 'facts, no licence needed',
  },
]);

/** The resolver prefixes as a lookup (built once: a few dozen ranges). */
export const ANYCAST_RESOLVERS: IpLabelIndex = IpLabelIndex.build(ANYCAST_RESOLVER_RANGES);
