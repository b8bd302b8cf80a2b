/**
 * The 27 member states of the European Union (since the United Kingdom left on 31 January 2020),
 * by alpha-2 code. `countryIsEU` is true for these codes only: territories that are part of the
 * EU but carry their own ISO code (the outermost regions GF, GP, MQ, RE, YT, MF and Åland, AX)
 * are answered false, because the field describes the country code, not customs or VAT law.
 */
export const EU_MEMBER_STATES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE',
  'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE',
]);
