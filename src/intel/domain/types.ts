/**
 * The domain block shared by GET /lookup/domain and the `domain` of GET /scoring/email (spec
 * "Domain result" and "Email result"). Values a check could not settle within its time budget,
 * or with the network off, are null.
 */

/** What DNS and RDAP say about a domain. */
export interface DomainNetworkFacts {
  is_mx: boolean | null;
  is_spf: boolean | null;
  is_dmarc: boolean | null;
  is_dkim: boolean | null;
  is_bimi: boolean | null;
  /** Registration date (ISO 8601 date or timestamp) from RDAP; null when unknown. */
  created_at: string | null;
  /** Registered within one year of `now`; null when created_at is unknown. */
  is_new: boolean | null;
}

/** What Vigil's lists say about a domain. */
export interface DomainListFacts {
  is_dangerous: boolean;
  is_disposable: boolean;
  is_forwarding: boolean;
}

/** The `/lookup/domain` result; `/scoring/email`'s `domain` block is the same minus is_disposable/is_forwarding. */
export interface DomainResult extends DomainNetworkFacts, DomainListFacts {
  name: string;
}

/** Looks up a domain's network facts within a budget; a slow answer fills a cache in the background. */
export interface DomainNetwork {
  facts(domain: string, opts: { budgetMs: number; now: Date }): Promise<DomainNetworkFacts>;
}

/** Vigil's domain lists (disposable, forwarding, dangerous); a subdomain of a listed domain counts. */
export interface DomainLists {
  lists(domain: string): DomainListFacts;
}
