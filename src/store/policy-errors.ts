/** Errors of the policy store that callers map to HTTP answers (both backends throw the same classes). */

/** A custom rule with that id already exists in the account (HTTP 409). Nothing was written. */
export class PolicyConflictError extends Error {
  override readonly name = 'PolicyConflictError';

  constructor(
    readonly accountId: string,
    readonly ruleId: string,
  ) {
    super(`custom rule ${ruleId} already exists in this account`);
  }
}
