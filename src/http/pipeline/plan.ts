import { ApiError } from '../errors.ts';
import { planAllowsMethod } from '../../accounts/plans.ts';
import type { Plan } from '../../store/ports.ts';

/** Modules that are plan features (decisions.md); the others come with every plan. */
export const PLAN_MODULES: readonly string[] = ['security', 'device'];

/** Step 6: the plan includes the method (117) and every requested plan module (114). */
export function checkPlan(plan: Plan, planMethod: string, modules: ReadonlySet<string>): void {
  if (!planAllowsMethod(plan, planMethod)) throw new ApiError(117, `The plan of this account does not include /${planMethod}.`);
  for (const m of modules) {
    if (PLAN_MODULES.includes(m) && !plan.modules.includes(m)) {
      throw new ApiError(114, `The plan of this account does not include the ${m} module.`);
    }
  }
}
