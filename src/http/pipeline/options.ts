import { LANGS, type Lang } from '../../intel/country/types.ts';
import { ApiError } from '../errors.ts';
import type { Format } from '../formats/index.ts';
import type { RequestOptions } from '../context.ts';
import { readParam } from '../params.ts';

const FORMATS: Record<string, Format> = { JSON: 'JSON', XML: 'XML', CSV: 'CSV', NEWLINE: 'Newline' };
const CALLBACK = /^[A-Za-z_$][\w$]{0,63}(\.[A-Za-z_$][\w$]{0,63}){0,3}$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what userID forbids
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Step 1: the common options (format, callback, lang, mode, userID, params), errors 107-111, 123, 104. */
export function parseOptions(query: Readonly<Record<string, unknown>>, endpointModules: readonly string[]): RequestOptions {
  const formatRaw = readParam(query, 'format', 108);
  const format = formatRaw === undefined || formatRaw === '' ? 'JSON' : FORMATS[formatRaw.toUpperCase()];
  if (!format) throw new ApiError(108, `The format "${formatRaw}" is not supported; use JSON, XML, CSV or Newline.`);

  const callbackRaw = readParam(query, 'callback', 107);
  const callback = callbackRaw === '' ? undefined : callbackRaw;
  if (callback !== undefined) {
    if (!CALLBACK.test(callback)) throw new ApiError(107);
    if (format !== 'JSON') throw new ApiError(109);
  }

  const langRaw = readParam(query, 'lang', 110);
  const lang = langRaw === undefined || langRaw === '' ? 'EN' : (langRaw.toUpperCase() as Lang);
  if (!LANGS.includes(lang)) throw new ApiError(110, `The language "${langRaw}" is not supported; use one of ${LANGS.join(', ')}.`);

  const modeRaw = readParam(query, 'mode', 111);
  const mode = modeRaw === undefined || modeRaw === '' ? 'live' : modeRaw.toLowerCase();
  if (mode !== 'live' && mode !== 'test') throw new ApiError(111);

  const userId = readParam(query, 'userID', 123);
  if (userId !== undefined && (userId.length > 255 || CONTROL.test(userId))) throw new ApiError(123);

  const paramsRaw = readParam(query, 'params', 104);
  const modules = paramsRaw === undefined || endpointModules.length === 0 ? NO_MODULES : moduleSet(paramsRaw, endpointModules);

  const explain = readParam(query, 'explain', 104)?.toLowerCase() === 'yes';
  return { format, callback, lang, mode, userId: userId === '' ? undefined : userId, modules, explain };
}

const NO_MODULES: ReadonlySet<string> = new Set();

/** Module sets already parsed, per endpoint module list and `params` text: callers send the same few again and again. */
const parsedModules = new WeakMap<readonly string[], Map<string, ReadonlySet<string>>>();
const MAX_PARSED = 256;

/** The modules named in `params` (comma-separated, any case, blanks ignored); 104 for one the endpoint does not have. */
function moduleSet(paramsRaw: string, endpointModules: readonly string[]): ReadonlySet<string> {
  let parsed = parsedModules.get(endpointModules);
  const known = parsed?.get(paramsRaw);
  if (known) return known;
  const modules = new Set<string>();
  for (const part of paramsRaw.split(',')) {
    const m = part.trim().toLowerCase();
    if (m === '') continue;
    if (!endpointModules.includes(m)) {
      throw new ApiError(104, `Unknown module "${part.trim().slice(0, 40)}" in params; this method accepts ${endpointModules.join(', ')}.`);
    }
    modules.add(m);
  }
  if (!parsed) parsedModules.set(endpointModules, (parsed = new Map<string, ReadonlySet<string>>()));
  if (parsed.size < MAX_PARSED) parsed.set(paramsRaw, modules);
  return modules;
}
