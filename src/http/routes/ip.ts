import type { EndpointDef } from '../endpoint.ts';

/** GET /ip: the caller's own address (after TRUST_PROXY); no key, no counting. */
export const ipEndpoint: EndpointDef = {
  operation: 'ip.self',
  method: 'GET',
  summary: "The caller's IP address",
  description: 'Returns the address the request came from, as `data`. Needs no key and counts toward nothing.',
  sample: {},
  live: (ctx) => ctx.ip,
  test: (ctx) => ctx.ip,
};
