/** The usage lines of the policy commands (rules, blacklist, webhooks, events), apart from their code so the CLI's help loads nothing else. */
export const POLICY_USAGE = `  vigil rules list ACCOUNT
  vigil rules add ACCOUNT FILE                  a JSON rule (or an array of rules)
  vigil rules enable|disable|delete ACCOUNT RULE_ID
  vigil rules test ACCOUNT (--id RULE_ID | --rule FILE) --sample FILE    sample: {"input": {...}, "result": {...}}
  vigil rules backtest ACCOUNT (--id RULE_ID | --rule FILE) --from ISO --to ISO
  vigil blacklist list ACCOUNT [--type TYPE] [--limit N]
  vigil blacklist counts ACCOUNT
  vigil blacklist add|remove ACCOUNT TYPE VALUE...
  vigil blacklist import ACCOUNT TYPE FILE [--skip-invalid]      one value per line, # comments
  vigil webhooks list ACCOUNT
  vigil webhooks add ACCOUNT URL [--secret S]   prints the signing secret once
  vigil webhooks remove|rotate ACCOUNT WEBHOOK_ID
  vigil events list ACCOUNT [--kind K] [--from ISO] [--to ISO] [--user ID] [--limit N]
  vigil events export ACCOUNT [same filters]    CSV on standard output
  vigil events redeliver ACCOUNT EVENT_ID [--webhook WEBHOOK_ID]`;
