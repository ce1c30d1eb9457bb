import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FILE_ORDERINGS, MAX_PAGE_SIZE } from '@portal/shared';
import { fileEntrySchema, fileFolderPageSchema } from '@portal/shared/contracts/file-tree';
import { pagingQuery } from '../../http/paging.js';
import type { FilesService } from './files.service.js';

const text = z.string({ error: 'validation.invalid' }).max(8192, 'validation.invalid').optional();
const folderQuery = pagingQuery.extend({
  metadata__id: z.string({ error: 'fileTree.metadataRequired' }).min(1, 'fileTree.metadataRequired').max(100, 'fileTree.metadataRequired'),
  path: text,
  // The spec's file list shows 20 a page.
  pageSize: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1, 'validation.invalid').max(MAX_PAGE_SIZE, 'validation.invalid').default(20),
  ordering: z.enum(FILE_ORDERINGS, { error: 'fileTree.ordering' }).default('name'),
});
/** The form posts' fields (form-urlencoded or JSON): the record, the parent folder, and what each call names. */
const form = z.object({ metadata_id: text, path: text, name: text, id: text, from: text, to: text });

/**
 * A record's file tree (spec section 7, "Data files and FTP"): GET /api/data/file/ lists one folder;
 * the form posts /data/createFolder/, /data/newfile/, /data/deleteFile/ (the plain text `ok`) and
 * /data/moveFile/ change it. Thin: the rules are FileTree's.
 */
export async function fileTreeRoutes(parent: FastifyInstance, { files }: { files: FilesService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/api/data/file/', { schema: { querystring: folderQuery, response: { 200: fileFolderPageSchema } }, config: { access: 'public' } }, async (request) => {
    const { metadata__id: metadataId, path, ordering, page, pageSize } = request.query;
    return files.listFolder(request.user, metadataId, path ?? '/', { ordering, slice: { offset: (page - 1) * pageSize, limit: pageSize } });
  });

  const created = { body: form, response: { 201: fileEntrySchema } };
  app.post('/data/createFolder/', { schema: created, config: { access: 'user' } }, async (request, reply) => {
    const { metadata_id: metadataId, path, name } = request.body;
    return reply.status(201).send(await files.tree.createFolder(request.user, { metadataId, path, name }));
  });
  app.post('/data/newfile/', { schema: created, config: { access: 'user' } }, async (request, reply) => {
    const { metadata_id: metadataId, path, name } = request.body;
    return reply.status(201).send(await files.tree.newFile(request.user, { metadataId, path, name }));
  });
  app.post('/data/deleteFile/', { schema: { body: form }, config: { access: 'user' } }, async (request, reply) => {
    const { metadata_id: metadataId, path, name, id } = request.body;
    await files.tree.remove(request.user, { metadataId, path, name, id });
    return reply.type('text/plain; charset=utf-8').send('ok');
  });
  app.post('/data/moveFile/', { schema: { body: form, response: { 200: fileEntrySchema } }, config: { access: 'user' } }, async (request) => {
    const { metadata_id: metadataId, from, to } = request.body;
    return files.tree.move(request.user, { metadataId, from, to });
  });
}
