import type { Plan } from '../store/ports.ts';

/** Built-in plans (decisions.md): method access follows the spec's endpoint table. */
const ALL_FOUR = [
  'geoip', 'lookup/ip', 'lookup/ip/bulk', 'lookup/ip/threats', 'lookup/bin', 'lookup/country',
  'lookup/domain', 'scoring/profanity', 'account/users/delete', 'feedback/payment', 'feedback/event',
  'feedback/bulk',
];
/** Methods the Standard plan does not include (spec: "Trial, Premium, Pay-as-you-go"). */
const NOT_STANDARD = ['lookup/asn', 'lookup/iban', 'scoring/email', 'scoring/phone', 'scoring/payment'];
const FLOOD = { limit: 1000, windowSeconds: 1 };

export const BUILTIN_PLANS: readonly Plan[] = Object.freeze([
  { id: 'trial', methods: ['*'], modules: ['security', 'device'], monthlyQuota: 5000, flood: FLOOD },
  { id: 'standard', methods: [...ALL_FOUR], modules: ['security'], monthlyQuota: 100000, flood: FLOOD },
  { id: 'premium', methods: ['*'], modules: ['security', 'device'], monthlyQuota: 1000000, flood: FLOOD },
  { id: 'payg', methods: ['*'], modules: ['security', 'device'], monthlyQuota: null, flood: FLOOD },
]);

export { NOT_STANDARD };

/** Every method a plan can list (the console's plan form offers these; `*` means all, including later ones). */
export const PLAN_METHODS: readonly string[] = Object.freeze([...ALL_FOUR, ...NOT_STANDARD]);

/** True when the plan lists the method (path without leading slash) or `*`. */
export function planAllowsMethod(plan: Plan, method: string): boolean {
  return plan.methods.includes('*') || plan.methods.includes(method);
}
