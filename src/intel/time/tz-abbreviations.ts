/**
 * Alphabetic abbreviations from the IANA tz database (2025b) for zones where Unicode CLDR has no
 * English short name in any of the locales `zoneAbbreviation` tries (CLDR gives "GMT+9" for
 * Tokyo in every English locale, tzdata says "JST"). Only zones whose tzdata abbreviation is
 * alphabetic are here; tzdata's numeric ones ("+03" for Riyadh) are what the fallback writes.
 * Found by comparing every `Intl.supportedValuesOf('timeZone')` zone in January and July with
 * `TZ=<zone> date +%Z`; rerun that comparison when Node's ICU moves to a new CLDR.
 *
 * Value: [standard, daylight]; daylight is absent where the zone keeps no DST today.
 */
export const TZDATA_ABBREVIATIONS: Readonly<Record<string, readonly [string, string?]>> = {
  'America/Dawson': ['MST'],
  'America/Whitehorse': ['MST'],
  'America/Hermosillo': ['MST'],
  'America/Mazatlan': ['MST'],
  'America/Havana': ['CST', 'CDT'],
  'Asia/Jakarta': ['WIB'],
  'Asia/Pontianak': ['WIB'],
  'Asia/Makassar': ['WITA'],
  'Asia/Ujung_Pandang': ['WITA'],
  'Asia/Jayapura': ['WIT'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Tel_Aviv': ['IST', 'IDT'],
  'Asia/Karachi': ['PKT'],
  'Asia/Macau': ['CST'],
  'Asia/Macao': ['CST'],
  'Asia/Manila': ['PST'],
  'Asia/Pyongyang': ['KST'],
  'Asia/Seoul': ['KST'],
  'Asia/Shanghai': ['CST'],
  'Asia/Chongqing': ['CST'],
  'Asia/Chungking': ['CST'],
  'Asia/Harbin': ['CST'],
  'Asia/Taipei': ['CST'],
  'Asia/Tokyo': ['JST'],
  'Europe/Guernsey': ['GMT', 'BST'],
  'Europe/Isle_of_Man': ['GMT', 'BST'],
  'Europe/Jersey': ['GMT', 'BST'],
  'Europe/Kirov': ['MSK'],
  'Europe/Moscow': ['MSK'],
  'Europe/Simferopol': ['MSK'],
  'Europe/Volgograd': ['MSK'],
  'Pacific/Midway': ['SST'],
  'Pacific/Pago_Pago': ['SST'],
  'Pacific/Samoa': ['SST'],
};
