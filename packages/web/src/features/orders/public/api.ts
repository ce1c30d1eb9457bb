import { useQuery } from '@tanstack/react-query';
import type { HaveDownload, Voucher } from '@portal/shared/contracts/orders';
import { api, isRequestError } from '../../../api/client';
import { path } from '../../../api/routes';

/**
 * The public pages' order calls (plain, no Ant Design): putting a dataset in the basket, whether the
 * caller may download a record, a voucher's verification. Types only from the contracts, so the
 * landing and search pages carry no zod.
 */

export type AddResult = { ok: true } | { ok: false; status: number; text?: string };

/** `POST /api/account/line_item/` (the client sends the CSRF header). */
export async function addToBasket(metadataId: string): Promise<AddResult> {
  const reply = await api.postJson<{ detail?: string }>(path('basket'), { metadata_id: metadataId });
  if (isRequestError(reply)) {
    const detail = typeof reply.detail === 'string' ? reply.detail : Array.isArray(reply.metadata_id) ? String(reply.metadata_id[0]) : undefined;
    return { ok: false, status: reply.request_error.status, text: detail };
  }
  return { ok: true };
}

/** `GET /metadata/have-download/?id=`: the caller's access to a record's files, and why not. */
export function useHaveDownload(metadataId: string) {
  return useQuery({
    queryKey: ['orders', 'have-download', metadataId],
    queryFn: async () => {
      const reply = await api.get<HaveDownload>(path('haveDownload'), { id: metadataId });
      if (!reply || isRequestError(reply)) throw new Error('have-download');
      return reply;
    },
    retry: false,
  });
}

export type VoucherCheck = { found: true; voucher: Voucher } | { found: false };

/** `GET /api/voucher/verify/{code}/`: 404 when no voucher has the code. */
export function useVoucherCheck(code: string) {
  return useQuery({
    queryKey: ['orders', 'voucher-check', code],
    queryFn: async (): Promise<VoucherCheck> => {
      const reply = await api.get<Voucher>(path('verifyVoucher', { code }));
      if (isRequestError(reply)) {
        if (reply.request_error.status === 404) return { found: false };
        throw new Error('voucher');
      }
      return { found: true, voucher: reply! };
    },
    retry: false,
  });
}
