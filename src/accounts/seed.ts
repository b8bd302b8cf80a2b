import { z } from 'zod';
import { invalidHostEntry } from './authorized-hosts.ts';
import { keyKind } from './keys.ts';

/** The seed file format of decisions.md; loaded idempotently by `vigil seed` and SEED_FILE. */
/** Account and plan ids: 1-64 letters, digits, _ . - (not starting with punctuation). */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const ID_RULE = 'ids are 1-64 letters, digits, _ . -';
const Id = z.string().regex(ID_PATTERN, ID_RULE);

export const SeedPlanSchema = z.object({
  id: Id,
  methods: z.array(z.string().regex(/^(\*|[a-z]+(\/[a-z]+)*)$/, 'methods are paths without the leading slash, or *')),
  modules: z.array(z.enum(['security', 'device'])).default([]),
  monthlyQuota: z.number().int().min(0).nullable().default(null),
  flood: z.object({ limit: z.number().int().min(1), windowSeconds: z.number().int().min(1).max(86400) }),
});

export const SeedAccountSchema = z.object({
  id: Id,
  status: z.enum(['active', 'inactive']).default('active'),
  plan: Id,
  subscription: z.object({ expiresAt: z.iso.datetime({ offset: true }).nullable().default(null) }).nullable().default({ expiresAt: null }),
  authorizedHosts: z
    .array(z.string())
    .default([])
    .superRefine((hosts, ctx) => {
      for (const h of hosts) {
        const why = invalidHostEntry(h);
        if (why) ctx.addIssue({ code: 'custom', message: why });
      }
    }),
  settings: z
    .object({
      autoBlacklistConfirmedFraud: z.boolean().default(false),
      dailyDeletionLimit: z.number().int().min(0).default(100),
    })
    .default({ autoBlacklistConfirmedFraud: false, dailyDeletionLimit: 100 }),
  keys: z
    .array(z.string().refine((k) => keyKind(k) !== null, 'keys start with svc_live_ or svc_test_ followed by 16-128 letters or digits'))
    .default([]),
  // Policy objects are validated and stored by the policy layer; kept loose here on purpose.
  blacklists: z.array(z.object({ type: z.string(), values: z.array(z.string()) })).default([]),
  customRules: z.array(z.record(z.string(), z.unknown())).default([]),
  webhooks: z.array(z.object({ url: z.string().url(), secret: z.string().min(1) })).default([]),
});

export const SeedSchema = z.object({
  plans: z.array(SeedPlanSchema).default([]),
  accounts: z.array(SeedAccountSchema).default([]),
});

export type Seed = z.infer<typeof SeedSchema>;
export type SeedAccount = z.infer<typeof SeedAccountSchema>;

/** Parses seed JSON text; throws an Error listing every problem with its path. */
export function parseSeed(text: string): Seed {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`seed file is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = SeedSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`seed file is invalid:\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`);
  }
  return parsed.data;
}
