import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Language } from '@portal/shared';
import type { BlobStore } from '../../storage/index.js';
import type { UsageService } from '../usage/index.js';
import { fileTreeRoutes } from './file-tree.routes.js';
import { storedFileRoutes } from './files.routes.js';
import type { FilesService } from './files.service.js';

/**
 * After a refusal, the rest of an upload still on its way is read and dropped, up to this many
 * bytes, so that the client reads the reply instead of a reset connection; a larger rest closes it.
 */
const LINGER_BYTES = 8 * 1024 * 1024;

/** Reads and drops the unread rest of a refused upload while the reply goes out (see LINGER_BYTES). */
function dropUnreadBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  raw.unpipe();
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) raw.socket?.destroy();
  });
  raw.resume();
}

/**
 * The files module's HTTP face: a scope that parses multipart (file parts streamed, never kept whole in
 * memory) and drops the unread rest of a refused upload, holding the record's file tree (GET
 * /api/data/file/ and the /data/ form posts) and its stored files' routes.
 */
export async function filesRoutes(
  app: FastifyInstance,
  options: { files: FilesService; storage: BlobStore; usage?: UsageService; landingUrl?: (metadataId: string, language: Language) => string },
) {
  await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  await app.register(fileTreeRoutes, { files: options.files });
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.isMultipart()) dropUnreadBody(request);
    return payload;
  });
  await app.register(storedFileRoutes, options);
}
