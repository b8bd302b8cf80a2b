/**
 * Response format writers: pure functions from an envelope body to the bytes of one format.
 * The contract is decisions.md "Options and formats"; each writer's file documents its choices.
 */
import { renderCsv } from './csv.ts';
import { renderJson } from './json.ts';
import { renderJsonp } from './jsonp.ts';
import { renderNewline } from './newline.ts';
import { renderXml } from './xml.ts';

/** A value of the `format` option, already normalised to its canonical spelling. */
export type Format = 'JSON' | 'XML' | 'CSV' | 'Newline';

/** A rendered body with its Content-Type and any extra headers. */
export interface Rendered {
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** Options of {@link render}. */
export interface RenderOptions {
  format: Format;
  /**
   * JSONP callback, already validated (107). Only used with JSON; other formats ignore it (109
   * is raised upstream, and its error body must still render). Empty means no callback.
   */
  callback?: string;
  /** `data` is an object keyed by subject (bulk IP lookup): CSV rows and Newline blocks per key. */
  keyed?: boolean;
}

/** Renders a success or error envelope in the requested format. */
export function render(body: Record<string, unknown>, opts: RenderOptions): Rendered {
  switch (opts.format) {
    case 'JSON':
      return opts.callback === undefined || opts.callback === '' ? renderJson(body) : renderJsonp(body, opts.callback);
    case 'XML':
      return renderXml(body);
    case 'CSV':
      return renderCsv(body, opts.keyed === true);
    case 'Newline':
      return renderNewline(body, opts.keyed === true);
  }
}

export { KEY_COLUMN } from './leaves.ts';
