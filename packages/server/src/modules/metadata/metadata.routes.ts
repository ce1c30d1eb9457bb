import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { METADATA_STATUSES, PROJECTIONS, type SubmissionReason } from '@portal/shared';
import { APPLICATION_USER_TYPES, authorSortSchema, metadataCreateSchema, metadataUpdateSchema } from '@portal/shared/contracts/metadata';
import {
  droppedSchema,
  isEmptySchema,
  metadataRecordPageSchema,
  metadataRecordSchema,
  projectionsSchema,
  returnToDraftSchema,
  submitCheckSchema,
  submitDoneSchema,
} from '@portal/shared/contracts/metadata-replies';
import { pageOf } from '@portal/shared/contracts/page';
import { pagingQuery, toPage } from '../../http/paging.js';
import { compiledSerializerCompiler } from '../../plugins/compiled-serializer.js';
import type { ReviewService } from '../review/index.js';
import type { UsageService } from '../usage/index.js';
import type { MetadataService } from './metadata.service.js';
import { RESOURCES } from './resources.js';
import type { ResourceService } from './resources.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const idQuery = z.object({ id: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata').max(100, 'metadata.validation.metadata') });
const idBody = idQuery;
const statusValue = z.enum(METADATA_STATUSES, { error: 'metadata.validation.option' });

/** The Personal header of spec section 7: true in the personal centre, false on admin pages. */
const isPersonal = (request: FastifyRequest) => String(request.headers.personal ?? '').toLowerCase() === 'true';

/** Metadata calls of spec section 7. Thin: schema, access, one service call. */
export async function metadataRoutes(
  parent: FastifyInstance,
  { metadata, resources, review, usage }: { metadata: MetadataService; resources: ResourceService; review: ReviewService; usage: UsageService },
) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Replies through their zod schemas compiled once (plugins/compiled-serializer.ts), not parsed each time.
  app.setSerializerCompiler(compiledSerializerCompiler);

  app.get(
    '/api/metadata/metadata/',
    {
      schema: {
        querystring: pagingQuery.extend({
          // The web client sends arrays as `status[]=a&status[]=b`; the query parser makes them `status: [a, b]`.
          status: z.union([statusValue, z.array(statusValue).max(METADATA_STATUSES.length)], { error: 'metadata.validation.option' }).optional(),
          search: z.string().trim().max(200, 'metadata.validation.filter').optional(),
        }),
        response: { 200: metadataRecordPageSchema },
      },
      config: { access: 'public' },
    },
    async (request) => {
      const { page, pageSize, status, search } = request.query;
      const statuses = status === undefined ? [] : Array.isArray(status) ? status : [status];
      const personal = isPersonal(request);
      const { count, results } = await metadata.list(request.user, { personal, statuses, search: search || undefined }, (page - 1) * pageSize, pageSize);
      // The personal centre's lists hold the caller's own records: each with its review label in
      // one look-up for the page (the "in review" list shows it in words).
      if (!personal || !request.user || !results.length) return toPage(request, { page, pageSize }, count, results);
      const labels = await review.labels(results.map((row) => String(row.id)));
      return toPage(
        request,
        { page, pageSize },
        count,
        results.map((row) => ({ ...row, review_label: labels.get(String(row.id)) ?? null })),
      );
    },
  );

  app.post('/api/metadata/metadata/', { schema: { body: metadataCreateSchema, response: { 201: metadataRecordSchema } }, config: { access: 'user' } }, async (request, reply) => {
    return reply.status(201).send(await metadata.create(request.user!, request.body));
  });

  /**
   * A published record's reply as text, made once for each record as MetadataService keeps it (the
   * same object while it is kept) and cut around its counts, which are read each time: the text
   * before, between and after them. Serializing the whole record for every reader was the largest
   * part of the page's own time. The counts' keys cannot occur inside another value (a quote in a
   * string is escaped), and no nested object has them.
   */
  const replyText = new WeakMap<object, readonly [string, string, string]>();
  const textAround = (reply: FastifyReply, record: object): readonly [string, string, string] | undefined => {
    let parts = replyText.get(record);
    if (parts) return parts;
    const text = String(reply.serializeInput({ ...record, hit_count: -1, download_count: -1 }, '200'));
    const hit = text.indexOf('"hit_count":-1');
    const download = text.indexOf('"download_count":-1');
    if (hit < 0 || download < hit) return undefined;
    parts = [text.slice(0, hit + 12), text.slice(hit + 14, download + 17), text.slice(download + 19)] as const;
    replyText.set(record, parts);
    return parts;
  };

  app.get('/api/metadata/metadata/:id/', { schema: { params: idParams, response: { 200: metadataRecordSchema } }, config: { access: 'public' } }, async (request, response) => {
    const record = await metadata.get(request.user, request.params.id);
    if (record.status !== 'published') return record;
    // The counts as the catalogue holds them now (the record itself may come from memory).
    const counts = await usage.countsOf(record.id);
    const reply = { ...record, ...counts };
    // A reader's view of a published record (not its creator's own look) counts, once per visitor per
    // 30 s, in the batch of this turn of the event loop; the reply does not wait for it (it shows the
    // counts before this view, as it always did).
    if (record.owner_id !== request.user?.id) {
      usage.countView(record.id, { userId: request.user?.id, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' }).catch((error: unknown) => {
        request.log.error({ err: error, metadataId: record.id }, 'a view could not be counted');
      });
    }
    const parts = counts && textAround(response, record);
    if (!parts) return reply;
    // As text, past the route's typed reply (which takes the object only).
    const untyped: FastifyReply = response;
    return untyped.type('application/json; charset=utf-8').send(`${parts[0]}${counts!.hit_count}${parts[1]}${counts!.download_count}${parts[2]}`);
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/metadata/metadata/:id/',
      schema: { params: idParams, body: metadataUpdateSchema, response: { 200: metadataRecordSchema } },
      config: { access: 'user' },
      handler: async (request) => metadata.update(request.user!, request.params.id, request.body),
    });
  }

  app.delete('/api/metadata/metadata/:id/', { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
    await metadata.remove(request.user!, request.params.id);
    return reply.status(204).send();
  });

  /** The pre-submit check: status 'true', or 'false' with every reason, in the caller's language. */
  app.get('/metadata/metadata-submit/', { schema: { querystring: idQuery, response: { 200: submitCheckSchema } }, config: { access: 'user' } }, async (request) => {
    const problems = await metadata.checkSubmission(request.user!, request.query.id);
    return submitReply(request, problems);
  });

  /**
   * Submits a draft: the server checks again and moves nothing when anything is missing. No reply
   * schema for the 400: the route's error replies (validation, access) would go through it too.
   */
  app.post('/metadata/metadata-submit/', { schema: { body: idBody, response: { 200: submitDoneSchema } }, config: { access: 'user' } }, async (request, reply) => {
    const { problems, record } = await review.submit(request.user!, request.body.id);
    // Sent as it is (the route's serializer answers the 200 only), so parsed through its schema here.
    if (problems.length) return (reply as FastifyReply).status(400).send(submitCheckSchema.parse(submitReply(request, problems)));
    return { status: 'true' as const, reasons: [], msg: request.t('metadata.submit.success'), metadata: record! };
  });

  app.post('/metadata/return-draft/', { schema: { body: idBody, response: { 200: returnToDraftSchema } }, config: { access: 'user' } }, async (request) => {
    await review.returnToDraft(request.user!, request.body.id);
    const record = await metadata.get(request.user!, request.body.id);
    return { status: 'true' as const, msg: request.t('metadata.submit.returned'), metadata: record };
  });

  app.post('/metadata/duplication/:id', { schema: { params: idParams, response: { 201: metadataRecordSchema } }, config: { access: 'user' } }, async (request, reply) => {
    return reply.status(201).send(await metadata.duplicate(request.user!, request.params.id));
  });

  app.get('/metadata/metadata-is-null/', { schema: { querystring: idQuery, response: { 200: isEmptySchema } }, config: { access: 'user' } }, async (request) => ({
    is_null: await metadata.isEmpty(request.user!, request.query.id),
  }));

  /** The editor leaving a draft (ours; the spec has only is-null): the server decides and deletes. */
  app.post('/metadata/drop-empty-draft/', { schema: { body: idBody, response: { 200: droppedSchema } }, config: { access: 'user' } }, async (request) => ({
    deleted: await metadata.dropIfEmpty(request.user!, request.body.id),
  }));

  app.get('/metadata/projections/', { schema: { response: { 200: projectionsSchema } }, config: { access: 'public' } }, async () => ({
    count: PROJECTIONS.length,
    results: [...PROJECTIONS],
  }));

  app.get(
    '/api/metadata/applications/',
    {
      schema: {
        querystring: pagingQuery.extend({
          user_type: z.enum(APPLICATION_USER_TYPES, { error: 'metadata.validation.option' }).default('owner'),
          author: z.string().max(100).optional(),
        }),
        response: { 200: metadataRecordPageSchema },
      },
      config: { access: 'user' },
    },
    async (request) => {
      const { page, pageSize, user_type: userType, author } = request.query;
      const { count, results } = await metadata.applications(request.user!, userType, author || undefined, (page - 1) * pageSize, pageSize);
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  const named = (name: string) => RESOURCES.find((r) => r.name === name)!;

  app.get(
    '/api/metadata/like_author/',
    {
      schema: { querystring: pagingQuery.extend({ like_author: z.string().trim().max(100).default('') }), response: { 200: pageOf(named('author').reply) } },
      config: { access: 'user' },
    },
    async (request) => {
      const { page, pageSize, like_author: likeAuthor } = request.query;
      const def = named('author');
      const { count, results } = await resources.list(def, request.user, { like_author: likeAuthor }, (page - 1) * pageSize, pageSize);
      return toPage(request, { page, pageSize }, count, results);
    },
  );

  app.delete(
    '/api/metadata/keyword/',
    { schema: { querystring: z.object({ metadata: z.string().min(1).max(100), keyword: z.string().min(1).max(100) }) }, config: { access: 'user' } },
    async (request, reply) => {
      await resources.unlinkKeyword(request.user!, request.query.metadata, request.query.keyword);
      return reply.status(204).send();
    },
  );

  // The spec's other names: literature-meta/ for the citations, /metadata/metadata-keyword/ for a
  // record's keywords, /metadata/meta-relate-author/ for linking an author.
  const served = [
    ...RESOURCES,
    { ...named('citation'), name: 'literature-meta' },
    { ...named('meta-keyword'), path: '/metadata/metadata-keyword/' },
    { ...named('meta-author'), path: '/metadata/meta-relate-author/' },
  ];
  app.post(
    '/api/metadata/author_sort/',
    { schema: { body: authorSortSchema, response: { 200: pageOf(named('meta-author').reply) } }, config: { access: 'user' } },
    async (request) => {
      const results = await resources.sortAuthors(request.user!, request.body.metadata, request.body.ids);
      return { count: results.length, next: null, previous: null, results };
    },
  );

  for (const def of served) {
    const base = def.path ?? `/api/metadata/${def.name}/`;
    app.get(base, { schema: { querystring: pagingQuery.passthrough(), response: { 200: pageOf(def.reply) } }, config: { access: def.read } }, async (request) => {
      const { page, pageSize, ...filters } = request.query;
      const { count, results } = await resources.list(def, request.user, filters, (page - 1) * pageSize, pageSize);
      return toPage(request, { page, pageSize }, count, results);
    });
    app.get(`${base}:id/`, { schema: { params: idParams, response: { 200: def.reply } }, config: { access: def.read } }, async (request) =>
      resources.get(def, request.user, request.params.id),
    );
    if (def.create) {
      app.post(base, { schema: { body: def.create, response: { 201: def.reply } }, config: { access: 'user' } }, async (request, reply) =>
        reply.status(201).send(await resources.create(def, request.user!, request.body as Record<string, unknown>)),
      );
    }
    const update = def.update ?? def.create;
    if (update) {
      for (const method of ['PUT', 'PATCH'] as const) {
        app.route({
          method,
          url: `${base}:id/`,
          schema: { params: idParams, body: def.update ?? (def.create as z.ZodObject).partial(), response: { 200: def.reply } },
          config: { access: 'user' },
          handler: async (request) => resources.update(def, request.user!, request.params.id, request.body as Record<string, unknown>),
        });
      }
    }
    app.delete(`${base}:id/`, { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
      await resources.remove(def, request.user!, request.params.id);
      return reply.status(204).send();
    });
  }
}

function submitReply(request: FastifyRequest, problems: SubmissionReason[]) {
  return {
    status: problems.length ? ('false' as const) : ('true' as const),
    reasons: problems,
    msg: problems.map((reason) => request.t(`metadata.submit.reasons.${reason}`)),
  };
}
