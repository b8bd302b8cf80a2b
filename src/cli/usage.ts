/**
 * Per-command usage: the lines of the whole help (one entry per `vigil ...` line with its continuation
 * lines) that belong to one command, so `vigil keys create` without an account shows how to call
 * `keys create`, not "unknown command" and every command there is.
 */

/** The help's entries: a line starting with `  vigil ` and the more indented lines under it. */
function entries(usage: string): string[] {
  const out: string[] = [];
  for (const line of usage.split('\n')) {
    if (/^ {2}vigil /.test(line)) out.push(line);
    else if (/^ {3,}\S/.test(line) && out.length > 0) out[out.length - 1] += '\n' + line;
  }
  return out;
}

/** `vigil keys create|revoke ...` names `create` and `revoke`; `vigil seed FILE` names none. */
function subcommands(entry: string, cmd: string): string[] {
  const words = entry.trim().split(/\s+/);
  if (words[1] !== cmd) return [];
  const sub = words[2] ?? '';
  return /^[a-z][a-z|-]*$/.test(sub) ? sub.split('|') : [];
}

/**
 * The usage text for `cmd` (and `sub` when it is one of cmd's sub-commands), or null for an unknown
 * command. `sub` that is not a sub-command of `cmd` gives all of cmd's lines.
 */
export function commandUsage(usage: string, cmd: string, sub?: string): string | null {
  const mine = entries(usage).filter((e) => e.trim().split(/\s+/)[1] === cmd);
  if (mine.length === 0) return null;
  const exact = sub === undefined ? [] : mine.filter((e) => subcommands(e, cmd).includes(sub));
  return `Usage:\n${(exact.length > 0 ? exact : mine).join('\n')}`;
}

/** Whether `sub` is one of the sub-commands the help lists for `cmd`. */
export function isSubcommand(usage: string, cmd: string, sub: string | undefined): boolean {
  return sub !== undefined && entries(usage).some((e) => subcommands(e, cmd).includes(sub));
}
