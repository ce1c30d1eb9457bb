import type { z } from 'zod';
import type {
  cartLinePageSchema,
  downloadablePageSchema,
  orderHandleSchema,
  orderPageSchema,
  orderSchema,
  ordersChangedSchema,
  placeOrderReplySchema,
  statisticsSchema,
  voucherSchema,
} from '@portal/shared/contracts/orders';
import type { storedFilePageSchema } from '@portal/shared/contracts/metadata-replies';
import type { ApplicationForm, PlaceOrder } from '@portal/shared/contracts/orders';
import { CSRF_HEADER, languageFromPath } from '@portal/shared';
import { api, ApiError, ok } from '../../api/client';
import { path } from '../../api/routes';
import { readCookie } from '../../api/cookies';

/** The order and download calls of issue 10 the personal centre makes; every shape inferred from the shared contracts. */

export type CartLinePage = z.infer<typeof cartLinePageSchema>;
export type CartLine = CartLinePage['results'][number];
export type Order = z.infer<typeof orderSchema>;
export type OrderPage = z.infer<typeof orderPageSchema>;
export type PlaceOrderReply = z.infer<typeof placeOrderReplySchema>;
export type OrdersChanged = z.infer<typeof ordersChangedSchema>;
export type OrderHandle = z.input<typeof orderHandleSchema>;
export type DownloadablePage = z.infer<typeof downloadablePageSchema>;
export type Downloadable = DownloadablePage['results'][number];
export type FilePage = z.infer<typeof storedFilePageSchema>;
export type StoredFile = FilePage['results'][number];
export type Voucher = z.infer<typeof voucherSchema>;
export type Statistics = z.infer<typeof statisticsSchema>;
export type { ApplicationForm, PlaceOrder };

export interface Paging {
  page: number;
  pageSize: number;
}

export interface OrderQuery extends Paging {
  status?: string;
  /** `handler`: the requests the caller decides, instead of the caller's own orders. */
  role?: 'handler';
}

/** Files of one dataset a page at a time (spec section 3: 20 in the download listing). */
export const FILE_PAGE_SIZE = 20;

export const ordersApi = {
  basket: async (paging: Paging) => ok<CartLinePage>(await api.get(path('basket'), { ...paging })),
  addLine: async (metadataId: string) => ok<unknown>(await api.postJson(path('basket'), { metadata_id: metadataId })),
  removeLine: async (id: string) => ok<unknown>(await api.delete(path('basketLine', { id }))),
  place: async (body: PlaceOrder) => ok<PlaceOrderReply>(await api.postJson(path('orders'), body)),
  list: async ({ status, role, ...paging }: OrderQuery) => ok<OrderPage>(await api.get(path('orders'), { ...paging, ...(status ? { status } : {}), ...(role ? { role } : {}) })),
  one: async (id: string) => ok<Order>(await api.get(path('order', { id }))),
  update: async (id: string, body: ApplicationForm) => ok<Order>(await api.put(path('order', { id }), body)),
  remove: async (ids: string[]) => ok<OrdersChanged>(await api.postJson(path('deleteOrders'), { orders: ids })),
  reapply: async (id: string) => ok<PlaceOrderReply>(await api.postJson(path('reapply'), { order: id })),
  handle: async (body: OrderHandle) => ok<OrdersChanged>(await api.postJson(path('handleOrders'), body)),
  downloadable: async (paging: Paging) => ok<DownloadablePage>(await api.get(path('downloadable'), { ...paging })),
  files: async (metadataId: string, page: number) => ok<FilePage>(await api.get(path('recordFiles'), { metadata__id: metadataId, page, pageSize: FILE_PAGE_SIZE })),
  voucher: async (orderId: string) => ok<Voucher>(await api.get(path('voucher', { id: orderId }))),
  statistics: async (metadataId: string, by: 'day' | 'month') => ok<Statistics>(await api.get(path('statistics', { id: metadataId }), { by })),
  /**
   * An order's signed download links, one a line, for `wget -i`: a text reply, which the JSON / HTML
   * client does not read, so it is fetched here with the same headers.
   */
  links: async (orderId: string): Promise<string> => {
    const headers: Record<string, string> = { Accept: 'text/plain, application/json', 'Accept-Language': languageFromPath(location.pathname), Personal: 'true' };
    const csrf = readCookie('csrftoken');
    if (csrf) headers[CSRF_HEADER] = csrf;
    const response = await fetch(path('orderLinks', { id: orderId }), { headers, credentials: 'include' });
    if (!response.ok) {
      const reply = (response.headers.get('content-type') ?? '').includes('application/json') ? ((await response.json()) as Record<string, unknown>) : {};
      throw new ApiError(response.status, reply);
    }
    return response.text();
  },
};

/** The address of one file's download, and of a zip of several (plain navigations: the browser saves them). */
export const fileDownloadUrl = (fileId: string) => path('fileDownload', { id: fileId });
export const zipDownloadUrl = (fileIds: string[]) => `${path('zip')}?files=${fileIds.map(encodeURIComponent).join(',')}`;

export const ordersKeys = {
  all: ['orders'] as const,
  basket: (paging: Paging) => ['orders', 'basket', paging] as const,
  list: (query: OrderQuery) => ['orders', 'list', query] as const,
  one: (id: string) => ['orders', 'one', id] as const,
  downloadable: (paging: Paging) => ['orders', 'downloadable', paging] as const,
  files: (metadataId: string, page: number) => ['orders', 'files', metadataId, page] as const,
  voucher: (orderId: string) => ['orders', 'voucher', orderId] as const,
  statistics: (metadataId: string, by: string) => ['orders', 'statistics', metadataId, by] as const,
};
