import type { Learning } from '../../src/learning/index.ts';
import type { EndpointDef } from '../../src/http/endpoint.ts';
import { buildEndpoints, type EngineData } from '../../src/http/routes/index.ts';
import { writeVerdict } from '../../src/policy/verdict.ts';

/**
 * Every real endpoint, with GET /lookup/country given a policy declaration as an IP-group method
 * would have one (the spec gives country none). The policy layer's HTTP tests run through it: the
 * real pipeline, store, snapshots and webhooks, on an answer that needs no imported data.
 * Lists: `card_country` on the result's countryCode and `customer_id` on the raw input.
 * Event: `suspicious_ip` (risk 90) whenever the final answer is blacklisted.
 */
export function withPolicyProbe(data: EngineData, learning?: Learning): EndpointDef[] {
  return buildEndpoints(data, learning).map((def) =>
    def.operation !== 'lookup.country'
      ? def
      : {
          ...def,
          policy: {
            group: 'ip',
            subjects: (answer, input) => {
              const result = answer as Record<string, unknown>;
              return [
                {
                  input,
                  result,
                  lists: [
                    { type: 'card_country', value: String(result.countryCode) },
                    { type: 'customer_id', value: String(input.CountryCode) },
                  ],
                  apply: (verdict) => writeVerdict(result, verdict, { listed: result }),
                  event: () =>
                    result.blacklisted === true
                      ? { kind: 'suspicious_ip', risk: 90, subject: String(result.countryCode), summary: { countryCode: result.countryCode, blacklisted: true } }
                      : null,
                },
              ];
            },
          },
        },
  );
}
