/**
 * IP risk, 0-100, from the security flags and the account's verdict (docs/ip.md "Risk").
 *
 * Each signal is an independent probability that the address hides or automates a user; they
 * combine as 1 - Π(1 - w). A blacklisted address is 100; a whitelisted one is 0. The `suspicious_ip`
 * event is raised at 50 or more, so one strong signal (Tor, VPN, a known crawler network seen by a
 * user-facing call) raises it alone, while a datacenter address alone or Apple's Private Relay (a
 * privacy feature of ordinary iPhone users) does not.
 *
 * Payment scoring reuses this score (issue 8); fraud labels on the address will join as a signal there.
 */
import type { SecurityBlock } from './lookup.ts';

export const IP_RISK_WEIGHTS = {
  tor: 0.9,
  proxy: 0.7,
  hosting: 0.45,
  bot: 0.4,
  relay: 0.25,
} as const;

export const SUSPICIOUS_IP_RISK = 50;

export interface IpRisk {
  risk: number;
  /** Each signal that took part and the weight it brought (explain=yes). */
  signals: Array<{ signal: keyof typeof IP_RISK_WEIGHTS | 'blacklisted' | 'whitelisted' | 'fraud_label'; weight: number }>;
}

export function ipRisk(security: SecurityBlock, whitelisted = false): IpRisk {
  if (whitelisted) return { risk: 0, signals: [{ signal: 'whitelisted', weight: 0 }] };
  if (security.blacklisted) return { risk: 100, signals: [{ signal: 'blacklisted', weight: 1 }] };
  const signals: IpRisk['signals'] = [];
  if (security.isTor) signals.push({ signal: 'tor', weight: IP_RISK_WEIGHTS.tor });
  // Tor exits are proxies too; count the stronger signal once.
  else if (security.isProxy) signals.push({ signal: 'proxy', weight: IP_RISK_WEIGHTS.proxy });
  if (security.isHosting) signals.push({ signal: 'hosting', weight: IP_RISK_WEIGHTS.hosting });
  if (security.isBot) signals.push({ signal: 'bot', weight: IP_RISK_WEIGHTS.bot });
  if (security.isRelay) signals.push({ signal: 'relay', weight: IP_RISK_WEIGHTS.relay });
  let clean = 1;
  for (const s of signals) clean *= 1 - s.weight;
  return { risk: Math.round((1 - clean) * 100), signals };
}
