import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  isLanguage,
  recordTablesSchema,
  TABLE_DATA_FORMATS,
  tableColumnsSchema,
  tableDataSchema,
  tableDescriptionSchema,
  tableImportSchema,
  tableInfoSchema,
  tableListSchema,
} from '@portal/shared';
import { attachmentDisposition, countDownload } from '../downloads/index.js';
import type { UsageService } from '../usage/index.js';
import { pagingQuery, toPage } from '../../http/paging.js';
import type { TablesService } from './tables.service.js';

/** A query or form text: the service checks what it must hold, with the spec's messages. */
const text = z.string({ error: 'validation.invalid' }).max(1000, 'validation.invalid').optional();
const bodyText = z.string({ error: 'validation.invalid' }).max(10_000, 'validation.invalid').optional();
const columnQuery = z.object({ file: text, sheet: text, header_rows: text });
const importBody = z.object({
  file: bodyText,
  sheet: bodyText,
  header_rows: z.union([z.number(), z.string().max(20)], { error: 'validation.invalid' }).optional(),
  table_name: bodyText,
  columns: z
    .array(z.object({ field: bodyText, display_name: bodyText, display_name_en: bodyText, unit: bodyText, note: bodyText, type: bodyText }), { error: 'validation.invalid' })
    .max(10_000, 'validation.invalid')
    .optional(),
  accept_empty: z.boolean({ error: 'validation.invalid' }).optional(),
});
const importQuery = z.object({ dry_run: z.enum(['true', 'false', '1', '0'], { error: 'validation.invalid' }).optional() });
/** The table, paging, ordering and a download's language; every other parameter is a filter the service checks against the table's fields. */
const dataQuery = z.looseObject({ ...pagingQuery.shape, table: text, ordering: text, format: z.enum(TABLE_DATA_FORMATS, { error: 'validation.invalid' }).optional(), lang: text });
const listQuery = z.object({ ...pagingQuery.shape, search: text, metadata__id: text });
const codeParams = z.object({ code: z.string().max(100) });
const idParams = z.object({ id: z.string().max(100) });

/**
 * Excel import into a database table and the table's rows (spec section 7, "Upload and tables";
 * issue 20). Thin: the rules are TablesService's.
 */
export async function tablesRoutes(parent: FastifyInstance, { tables, usage }: { tables: TablesService; usage: UsageService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/metadata/get-table-info/', { schema: { querystring: z.object({ file: text }), response: { 200: tableInfoSchema } }, config: { access: 'user' } }, async (request) =>
    tables.info(request.user, request.query.file),
  );

  app.get('/metadata/get-table-column/', { schema: { querystring: columnQuery, response: { 200: tableColumnsSchema } }, config: { access: 'user' } }, async (request) =>
    tables.columns(request.user, request.query),
  );

  app.post(
    '/metadata/trans/',
    { schema: { querystring: importQuery, body: importBody, response: { 200: tableImportSchema, 201: tableImportSchema } }, config: { access: 'user' } },
    async (request, reply) => {
      const dryRun = request.query.dry_run === 'true' || request.query.dry_run === '1';
      const made = await tables.create(request.user, request.body, dryRun, request.language);
      return reply.status(dryRun ? 200 : 201).send(made);
    },
  );

  app.get('/metadata/get-table-data/', { schema: { querystring: dataQuery, response: { 200: tableDataSchema } }, config: { access: 'public' } }, async (request, reply) => {
    const { page, pageSize, format } = request.query;
    if (format === 'csv' || format === 'xlsx') {
      // Every row that matches, streamed; counted as a download of the record, as its files are.
      // A download is a plain link, which sends no page language: the viewer's link says it (`lang`), as the exports' do.
      const lang = request.query.lang;
      const sent = await tables.download(request.user, request.query, format, isLanguage(lang) ? lang : request.language);
      await countDownload(usage, request, sent.metadataId, `table:${String(request.query.table)}`, sent.order);
      return reply
        .type(sent.type)
        .header('content-disposition', attachmentDisposition(sent.filename))
        .header('cache-control', 'private, no-store')
        .send(sent.stream as never);
    }
    return tables.data(request.user, request.query, { page, pageSize });
  });

  app.get('/api/tables/', { schema: { querystring: listQuery, response: { 200: tableListSchema } }, config: { access: 'public' } }, async (request) => {
    const { page, pageSize, search, metadata__id } = request.query;
    const { count, results } = await tables.list(request.user, { search, metadataId: metadata__id }, { page, pageSize });
    return toPage(request, { page, pageSize }, count, results);
  });

  app.get('/api/tables/:code/', { schema: { params: codeParams, response: { 200: tableDescriptionSchema } }, config: { access: 'public' } }, async (request) =>
    tables.describe(request.user, request.params.code),
  );

  app.get('/api/metadata/metadata/:id/tables/', { schema: { params: idParams, response: { 200: recordTablesSchema } }, config: { access: 'public' } }, async (request) =>
    tables.ofPublishedRecord(request.params.id),
  );
}
