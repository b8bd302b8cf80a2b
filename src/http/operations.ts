/**
 * Central registry of operation names. Each route declares one; it drives logging, metrics, usage
 * counting and the OpenAPI document. `planMethod` is the path without its leading slash, as plans
 * list it (decisions.md); null means no key is needed.
 */
export const OPERATIONS = {
  'ip.self': { path: '/ip', planMethod: null, free: true },
  geoip: { path: '/geoip', planMethod: 'geoip', free: false },
  'lookup.ip': { path: '/lookup/ip', planMethod: 'lookup/ip', free: false },
  'lookup.ip.bulk': { path: '/lookup/ip/bulk', planMethod: 'lookup/ip/bulk', free: false },
  'lookup.ip.threats': { path: '/lookup/ip/threats', planMethod: 'lookup/ip/threats', free: false },
  'lookup.asn': { path: '/lookup/asn', planMethod: 'lookup/asn', free: false },
  'lookup.country': { path: '/lookup/country', planMethod: 'lookup/country', free: false },
  'lookup.bin': { path: '/lookup/bin', planMethod: 'lookup/bin', free: false },
  'lookup.domain': { path: '/lookup/domain', planMethod: 'lookup/domain', free: false },
  'lookup.iban': { path: '/lookup/iban', planMethod: 'lookup/iban', free: false },
  'scoring.profanity': { path: '/scoring/profanity', planMethod: 'scoring/profanity', free: false },
  'scoring.email': { path: '/scoring/email', planMethod: 'scoring/email', free: false },
  'scoring.phone': { path: '/scoring/phone', planMethod: 'scoring/phone', free: false },
  'scoring.payment': { path: '/scoring/payment', planMethod: 'scoring/payment', free: false },
  'account.users.delete': { path: '/account/users/delete', planMethod: 'account/users/delete', free: true },
  'feedback.payment': { path: '/feedback/payment', planMethod: 'feedback/payment', free: true },
  'feedback.event': { path: '/feedback/event', planMethod: 'feedback/event', free: true },
  'feedback.bulk': { path: '/feedback/bulk', planMethod: 'feedback/bulk', free: true },
} as const satisfies Record<string, { path: string; planMethod: string | null; free: boolean }>;

export type OperationName = keyof typeof OPERATIONS;
