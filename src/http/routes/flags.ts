import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { flagFilePath } from '../../data/flags.ts';
import { sendEnvelope } from '../reply.ts';
import { errorBody } from '../errors.ts';

const PNG_SIZES = ['100px', '250px', '1000px'] as const;
type PngSize = (typeof PNG_SIZES)[number];

/** Flag images served by Vigil itself: /flags/svg/xx.svg and /flags/png/{100,250,1000}px/xx.png. Public, no key. */
export function registerFlagRoutes(app: FastifyInstance): void {
  const send = (reply: FastifyReply, path: string | null, type: string): FastifyReply => {
    if (!path) return sendEnvelope(reply, { ...errorBody(404, 'No flag image at this path.') }, { format: 'JSON', httpStatus: 404 });
    return reply.header('content-type', type).header('cache-control', 'public, max-age=86400').send(createReadStream(path));
  };
  app.get<{ Params: { file: string } }>('/flags/svg/:file', { schema: { hide: true } }, (req, reply) => {
    const m = /^([a-zA-Z]{2})\.svg$/.exec(req.params.file);
    return send(reply, m?.[1] ? flagFilePath('svg', m[1].toLowerCase()) : null, 'image/svg+xml');
  });
  app.get<{ Params: { size: string; file: string } }>('/flags/png/:size/:file', { schema: { hide: true } }, (req, reply) => {
    const m = /^([a-zA-Z]{2})\.png$/.exec(req.params.file);
    const size: PngSize | undefined = PNG_SIZES.find((s) => s === req.params.size);
    return send(reply, m?.[1] && size ? flagFilePath(size, m[1].toLowerCase()) : null, 'image/png');
  });
}
