import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addLineSchema,
  APPLY_ROLES,
  applyStatisticsSchema,
  cartLinePageSchema,
  cartLineSchema,
  deleteOrderSchema,
  downloadablePageSchema,
  haveDownloadSchema,
  orderHandleSchema,
  orderPageSchema,
  ordersChangedSchema,
  orderSchema,
  ORDER_STATUSES,
  placeOrderReplySchema,
  placeOrderSchema,
  reapplySchema,
  statisticsSchema,
  updateOrderSchema,
  voucherSchema,
} from '@portal/shared';
import { pagingQuery, toPage } from '../../http/paging.js';
import type { OrdersService } from './orders.service.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const codeParams = z.object({ code: z.string().min(1).max(40) });
const statusValue = z.enum(ORDER_STATUSES, { error: 'metadata.validation.option' });
const orderListQuery = pagingQuery.extend({
  status: z.union([statusValue, z.array(statusValue).max(ORDER_STATUSES.length)], { error: 'metadata.validation.option' }).optional(),
  /** `handler`: the requests the caller decides; otherwise the caller's own orders. */
  role: z.enum(['applicant', 'handler'], { error: 'metadata.validation.option' }).default('applicant'),
});
const lineIdsQuery = z.object({
  line: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z.array(z.string().min(1).max(100)).min(1, 'orders.validation.selectData').max(200, 'orders.validation.tooMany'),
  ),
});
const metadataQuery = z.object({ id: z.string({ error: 'metadata.validation.metadata' }).min(1, 'metadata.validation.metadata').max(100, 'metadata.validation.metadata') });
const statisticsQuery = z.object({ by: z.enum(['day', 'month'], { error: 'metadata.validation.option' }).default('day') });
const slice = (paging: { page: number; pageSize: number }) => ({ offset: (paging.page - 1) * paging.pageSize, limit: paging.pageSize });
const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Order calls of spec section 7 (basket, orders, handling, have-download, vouchers, statistics). Thin: schema, access, one service call. */
export async function ordersRoutes(parent: FastifyInstance, { orders }: { orders: OrdersService }) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // -- Basket --
  app.get('/api/account/line_item/', { schema: { querystring: pagingQuery, response: { 200: cartLinePageSchema } }, config: { access: 'user' } }, async (request) => {
    const { count, results } = await orders.basket.list(request.user!, slice(request.query));
    return toPage(request, request.query, count, results);
  });

  app.post('/api/account/line_item/', { schema: { body: addLineSchema, response: { 201: cartLineSchema } }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(201).send(await orders.basket.add(request.user!, request.body.metadata_id)),
  );

  app.delete('/api/account/line_item/:id/', { schema: { params: idParams }, config: { access: 'user' } }, async (request, reply) => {
    await orders.basket.remove(request.user!, [request.params.id]);
    return reply.status(204).send();
  });

  // Several lines at once: `?line=a,b` (the basket's "delete selected").
  app.delete('/api/account/line_item/', { schema: { querystring: lineIdsQuery }, config: { access: 'user' } }, async (request, reply) => {
    await orders.basket.remove(request.user!, request.query.line);
    return reply.status(204).send();
  });

  // -- Orders --
  app.post('/api/account/order/', { schema: { body: placeOrderSchema, response: { 201: placeOrderReplySchema } }, config: { access: 'user' } }, async (request, reply) => {
    const { line, ...form } = request.body;
    return reply.status(201).send(await orders.applications.apply(request.user!, form, line, { ip: request.ip, language: request.language }));
  });

  app.get('/api/account/order/', { schema: { querystring: orderListQuery, response: { 200: orderPageSchema } }, config: { access: 'user' } }, async (request) => {
    const { role, status, ...paging } = request.query;
    const list = role === 'handler' ? orders.queries.incoming.bind(orders.queries) : orders.queries.mine.bind(orders.queries);
    const { count, results } = await list(request.user!, asList(status), slice(paging));
    return toPage(request, paging, count, results);
  });

  app.get('/api/account/order/:id/', { schema: { params: idParams, response: { 200: orderSchema } }, config: { access: 'user' } }, async (request) =>
    orders.queries.one(request.user!, request.params.id),
  );

  app.put('/api/account/order/:id/', { schema: { params: idParams, body: updateOrderSchema, response: { 200: orderSchema } }, config: { access: 'user' } }, async (request) =>
    orders.applications.update(request.user!, request.params.id, request.body),
  );

  app.post('/account/order-handle/', { schema: { body: orderHandleSchema, response: { 200: ordersChangedSchema } }, config: { access: 'user' } }, async (request) => ({
    results: await orders.handling.handle(request.user!, request.body.orders, request.body.status, request.body.reason),
  }));

  for (const url of ['/account/delete_order/', '/account/delete-order/']) {
    app.post(url, { schema: { body: deleteOrderSchema, response: { 200: ordersChangedSchema } }, config: { access: 'user' } }, async (request) => ({
      results: await orders.handling.remove(request.user!, request.body.orders),
    }));
  }

  app.post('/account/reapply/', { schema: { body: reapplySchema, response: { 201: placeOrderReplySchema } }, config: { access: 'user' } }, async (request, reply) =>
    reply.status(201).send(await orders.applications.reapply(request.user!, request.body.order, { ip: request.ip, language: request.language })),
  );

  // -- Downloads --
  app.get('/metadata/have-download/', { schema: { querystring: metadataQuery, response: { 200: haveDownloadSchema } }, config: { access: 'public' } }, async (request) =>
    orders.downloads.check(request.user, request.query.id),
  );

  app.get('/api/data/downloadable/', { schema: { querystring: pagingQuery, response: { 200: downloadablePageSchema } }, config: { access: 'user' } }, async (request) => {
    const { count, results } = await orders.queries.downloadable(request.user!, slice(request.query));
    return toPage(request, request.query, count, results);
  });

  // -- Vouchers --
  app.get('/api/account/voucher/:id/', { schema: { params: idParams, response: { 200: voucherSchema } }, config: { access: 'user' } }, async (request) =>
    orders.vouchers.voucher(request.user!, request.params.id, request.language),
  );

  app.get('/api/voucher/verify/:code/', { schema: { params: codeParams, response: { 200: voucherSchema } }, config: { access: 'public' } }, async (request) =>
    orders.vouchers.verify(request.params.code, request.language),
  );

  // -- Statistics (the record's creator and staff) --
  app.get(
    '/api/metadata/statistics/:id/',
    { schema: { params: idParams, querystring: statisticsQuery, response: { 200: statisticsSchema } }, config: { access: 'user' } },
    async (request) => orders.statistics(request.user, request.params.id, request.query.by),
  );

  app.get(
    '/api/metadata/apply-statistics/',
    {
      schema: {
        querystring: pagingQuery.extend({ role: z.enum(APPLY_ROLES, { error: 'metadata.validation.option' }).default('provider') }),
        response: { 200: applyStatisticsSchema },
      },
      config: { access: 'user' },
    },
    async (request) => {
      const { role, ...paging } = request.query;
      const { count, roles, results } = await orders.applyStatistics(request.user!, role, slice(paging));
      return { ...toPage(request, paging, count, results), roles };
    },
  );

  // The spec's two order statistics calls: counts, and orders per day (timeOrders).
  for (const url of ['/account/order-statistics/', '/account/order-statistics']) {
    app.get(url, { schema: { querystring: metadataQuery }, config: { access: 'user' } }, async (request) => {
      const { totals } = await orders.statistics(request.user, request.query.id, 'day');
      return { datasetCount: 1, hitCount: totals.views, orderCount: totals.orders, downList: totals.downloads };
    });
  }

  app.get('/api/account/order-date-statistics/', { schema: { querystring: metadataQuery }, config: { access: 'user' } }, async (request) => {
    const { series } = await orders.statistics(request.user, request.query.id, 'day');
    return { timeOrders: series.filter((s) => s.orders > 0).map((s) => ({ date: s.period, count: s.orders })) };
  });
}
