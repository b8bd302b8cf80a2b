/**
 * One `data` example per method, taken from real answers of this server (the bundled data; flag URLs on an
 * example host). test/http/openapi-responses.test.ts validates each against its documented schema.
 */
import type { OperationName } from '../operations.ts';

const IP_RESULT = {
  "ip": "8.8.8.8",
  "ipType": "IPv4",
  "IPNumber": 134744072,
  "bogon": false,
  "continentName": "North America",
  "continentCode": "NA",
  "continentGeoNameID": 6255149,
  "countryCode": "US",
  "countryName": "United States of America",
  "countryGeoNameID": 6252001,
  "regionName": null,
  "cityName": null,
  "zipCode": null,
  "latitude": "37.751",
  "longitude": "-97.822",
  "location": {
    "capital": "Washington D.C.",
    "population": 310232863,
    "language": {
      "name": "English",
      "code": "en",
      "native": "English"
    },
    "flag": {
      "emoji": "🇺🇸",
      "unicode": "U+1F1FA U+1F1F8",
      "png": {
        "1000px": "https://vigil.example.com/flags/png/1000px/us.png",
        "250px": "https://vigil.example.com/flags/png/250px/us.png",
        "100px": "https://vigil.example.com/flags/png/100px/us.png"
      },
      "svg": "https://vigil.example.com/flags/svg/us.svg"
    },
    "phoneCode": "1",
    "countryIsEU": false,
    "countryNeighbours": "CA,CU,MX",
    "tld": ".us",
    "accuracyRadius": 1000
  },
  "currency": {
    "currencyName": "US Dollar",
    "currencyCode": "USD",
    "currencySymbol": "$"
  },
  "asn": {
    "asn": "AS15169",
    "name": "Google LLC",
    "org": "Google LLC",
    "domain": null,
    "phone": null,
    "email": null,
    "created": null,
    "type": "business"
  },
  "timezone": null,
  "security": {
    "isProxy": false,
    "proxyType": null,
    "isTor": false,
    "isBot": false,
    "isRelay": false,
    "isHosting": true,
    "blacklisted": false,
    "riskScore": 45,
    "custom_rules_applied": {
      "total": 0,
      "rules": []
    }
  },
  "custom_rules_applied": {
    "total": 0,
    "rules": []
  }
};

export const EXAMPLES: Record<OperationName, unknown> = {
  'ip.self': "81.2.69.160",
  geoip: { ...IP_RESULT, device: {"isMobile": false, "type": "desktop", "OS": {"type": "desktop", "name": "Windows", "family": "Windows", "version": "10", "title": "Windows 10", "64bits_mode": 1}, "browser": {"name": "Chrome", "version": 120, "versionMajor": "120", "title": "Chrome 120"}} },
  'lookup.ip': IP_RESULT,
  'lookup.ip.bulk': { '8.8.8.8': IP_RESULT },
  'lookup.ip.threats': {"ip": "8.8.8.8", "threats": {"isProxy": false, "proxyType": null, "isTor": false, "isBot": false, "isRelay": false, "isHosting": false, "blacklisted": false}, "custom_rules_applied": {"total": 0, "rules": []}},
  'lookup.asn': {"asn": "AS13335", "name": "Cloudflare, Inc.", "country": null, "org": "Cloudflare, Inc.", "phone": null, "email": null, "domain": null, "status": "active", "created": null, "type": "hosting", "registry": "ARIN", "prefixes": {"ipv4": ["1.0.0.0/24", "1.1.1.0/24", "5.10.214.0/23"], "ipv6": ["2001:678:19c::/48", "2400:cb00:4::/48"], "total": 2540}},
  'lookup.country': {"countryCode": "DE", "countryName": "Germany", "countryGeoNameID": 2921044, "capital": "Berlin", "population": 81802257, "phoneCode": "49", "currency": {"currencyName": "Euro", "currencyCode": "EUR", "currencySymbol": "€"}, "language": {"name": "German", "code": "de", "native": "Deutsch"}, "timezone": {"name": "Europe/Berlin", "abbreviation": "CET", "offset": 3600, "currentTime": "08:56:42", "currentTimestamp": 1795766202, "isDST": false, "sunInfo": {"sunset": "16:15:27", "sunrise": "07:55:21", "transit": "12:05:36", "civilTwilightBegin": "07:16:47", "civilTwilightEnd": "16:54:00", "nauticalTwilightBegin": "06:34:53", "nauticalTwilightEnd": "17:35:53", "astronomicalTwilightBegin": "05:54:51", "astronomicalTwilightEnd": "18:15:53", "dayLength": "08:20:06"}}, "flag": {"emoji": "🇩🇪", "unicode": "U+1F1E9 U+1F1EA", "png": {"1000px": "https://vigil.example.com/flags/png/1000px/de.png", "250px": "https://vigil.example.com/flags/png/250px/de.png", "100px": "https://vigil.example.com/flags/png/100px/de.png"}, "svg": "https://vigil.example.com/flags/svg/de.svg"}, "countryIsEU": true, "countryNeighbours": "AT,BE,CH,CZ,DK,FR,LU,NL,PL", "tld": ".de", "continentName": "Europe", "continentCode": "EU", "continentGeoNameID": 6255148},
  'lookup.bin': {"reason": "", "isValid": true, "blacklisted": false, "bin": "45717360", "info": {"scheme": {"name": "Visa", "coName": "Dankort", "isLuha": true, "isPrepaid": false, "isCommercial": false, "type": "debit", "brand": null, "currency": "DKK"}, "detected_digits": "45717360", "syntax": {"gaps": [4, 8, 12], "lengths": [13, 16, 18, 19], "code": {"name": "CVV", "size": 3}}, "bank": null, "country": {"alpha2": "DK", "name": "Denmark", "code": "45", "numeric": "208", "emoji": "🇩🇰", "continent": "Europe", "languageCode": "da", "languageNative": "Dansk", "source": "scheme"}}, "custom_rules_applied": {"total": 0, "rules": []}},
  'lookup.domain': {"name": "example.com", "is_dangerous": false, "is_disposable": false, "is_forwarding": false, "is_spf": true, "is_dmarc": false, "is_dkim": false, "is_mx": true, "is_bimi": false, "created_at": "2008-01-19T00:00:00Z", "is_new": false},
  'lookup.iban': {"isValid": true, "formats": {"machine": "DE89370400440532013000", "human": "DE89 3704 0044 0532 0130 00", "obfuscated": "DE89**************3000"}, "country": {"name": "Germany", "IANA": "de", "ISO3166": "DE", "currency": "EUR", "centralBank": {"name": null, "url": null}, "membership": null, "isEU": true, "isSEPA": true, "swiftOfficial": true, "length": "22"}, "bank": null, "custom_rules_applied": {"total": 0, "rules": []}},
  'scoring.profanity': {"isML": true, "text": "have a nice day", "totalBadWords": 0, "riskScore": 0.04, "isSafe": true},
  'scoring.email': {"score": 0, "reason": "", "isValid": true, "isFree": false, "isRoleBased": false, "isEducational": false, "isDisposable": false, "blacklisted": false, "email": "jane.doe@example.com", "suggestion": null, "isGibberish": false, "normalized": "jane.doe@example.com", "domain": {"name": "example.com", "is_dangerous": false, "is_spf": true, "is_dmarc": false, "is_dkim": false, "is_mx": true, "is_bimi": false, "created_at": "2008-01-19T00:00:00Z", "is_new": false}, "custom_rules_applied": {"total": 0, "rules": []}},
  'scoring.phone': {"carrier": "JT", "reason": "", "isValid": true, "blacklisted": false, "disposable": false, "phone": "447911123456", "countryCode": "GB", "lineType": "mobile", "custom_rules_applied": {"total": 0, "rules": []}},
  'scoring.payment': {"score": 1.8, "rules": [], "rulesChecked": 35, "rulesDetected": 0, "custom_rules_applied": {"total": 0, "rules": []}},
  'account.users.delete': {"transaction_data": 1, "ips": 4, "profanity_data": 2, "emails": 2, "phone_numbers": 1, "ibans": 1},
  'feedback.payment': {"transaction_id": "ord-1001", "outcome": "approved", "status": "applied", "matched": 1, "label": "created"},
  'feedback.event': {"type": "email", "value": "j******e@example.com", "label": "legit", "status": "created"},
  'feedback.bulk': {"received": 2, "created": 1, "updated": 0, "unchanged": 1, "pending": 0, "failed": 0, "results": [{"index": 0, "kind": "payment", "transaction_id": "ord-1001", "outcome": "approved", "status": "applied", "matched": 1, "label": "unchanged"}, {"index": 1, "kind": "event", "type": "ip", "value": "81.2.*.*", "label": "legit", "status": "created"}]},
};
