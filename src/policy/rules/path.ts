/**
 * Dot-path reading for rule fields. Paths are split once when a rule is compiled; reading walks
 * plain objects and, on reaching an array, reads the rest of the path in every element.
 */

export function splitPath(field: string): readonly string[] {
  return field.split('.');
}

/** Values reached by `segs[from..]` in every element of `list` (nested lists flattened); undefined when none. */
function project(list: readonly unknown[], segs: readonly string[], from: number, own: boolean): unknown[] | undefined {
  const out: unknown[] = [];
  for (const el of list) {
    const v = walk(el, segs, from, own);
    if (v === undefined || v === null) continue;
    if (!Array.isArray(v)) out.push(v);
    else for (const inner of v as unknown[]) if (inner !== undefined && inner !== null) out.push(inner);
  }
  return out.length > 0 ? out : undefined;
}

function walk(root: unknown, segs: readonly string[], from: number, own: boolean): unknown {
  let cur = root;
  for (let i = from; i < segs.length; i++) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) return project(cur, segs, i, own);
    const seg = segs[i] as string;
    if (own && !Object.hasOwn(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/**
 * A reader for one path. Segments that name an Object.prototype member (`constructor`,
 * `__proto__`, `toString`...) are read as own properties only, so a rule can never reach
 * inherited members; other paths skip that check, which keeps the hot path cheap.
 */
export function readPath(segs: readonly string[]): (subject: object) => unknown {
  const own = segs.some((seg) => seg in Object.prototype);
  if (segs.length === 1 && !own) {
    const key = segs[0] as string;
    return (s) => (s as Record<string, unknown>)[key];
  }
  return (s) => walk(s, segs, 0, own);
}
