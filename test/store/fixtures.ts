import { randomBytes } from 'node:crypto';
import type { Account, ApiKeyRecord, Plan, RequestLogEntry } from '../../src/store/ports.ts';

/** Ids unique per process run, so contract cases never see each other's rows in a shared database. */
const run = randomBytes(4).toString('hex');
let sequence = 0;
export function uid(prefix: string): string {
  sequence += 1;
  return `${prefix}_${run}_${sequence}`;
}

export function makePlan(id: string, overrides: Partial<Plan> = {}): Plan {
  return {
    id,
    methods: ['lookup/ip', 'lookup/country'],
    modules: ['security'],
    monthlyQuota: 1000,
    flood: { limit: 10, windowSeconds: 1 },
    ...overrides,
  };
}

export function makeAccount(id: string, overrides: Partial<Account> = {}): Account {
  return {
    id,
    status: 'active',
    planId: 'standard',
    subscription: { expiresAt: '2030-01-31T23:59:59.000Z' },
    authorizedHosts: ['example.com', '*.example.org', '203.0.113.7', '10.0.0.0/8', '2001:db8::/32'],
    settings: { autoBlacklistConfirmedFraud: true, dailyDeletionLimit: 25 },
    createdAt: '2024-03-01T12:00:00.000Z',
    ...overrides,
  };
}

export function makeKey(accountId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: uid('key'),
    accountId,
    hash: randomBytes(32).toString('hex'),
    kind: 'live',
    hint: 'a1b2',
    createdAt: '2024-03-01T12:00:00.000Z',
    revokedAt: null,
    ...overrides,
  };
}

export function makeLogEntry(accountId: string, userId: string, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    accountId,
    userId,
    operation: 'lookup.country',
    ip: '198.51.100.4',
    mode: 'live',
    at: '2024-03-01T12:00:00.000Z',
    ...overrides,
  };
}
