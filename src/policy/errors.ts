/** An operator's mistake in a policy request (unknown rule, bad list value...); the admin API maps `kind` to 404/400/409. */
export class PolicyError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}
