import { translate, type Language, type OrderIndexLink } from '@portal/shared';
import { AppError } from '../../errors.js';
import { escapeMarkup } from '../../http/markup.js';
import type { AuthenticatedUser } from '../account/index.js';
import { datasetFolders, signIndexLink, verifyIndexLink } from '../downloads/index.js';
import type { StoredFiles, TreeRow } from '../files/index.js';
import type { OrdersService } from '../orders/index.js';

/** Where an order's index lives: `/api/data/index/<order>/<expires>/<signature>/`, then a path in its datasets. */
export const INDEX_BASE = '/api/data/index';
/** The folders of the index's address before the datasets' own (api, data, index, order, expires, signature): wget's --cut-dirs. */
export const INDEX_CUT_DIRS = 6;
/** Entries read from the database at a time while a folder's listing is written. */
const PAGE = 1000;

/** A folder's listing, a file to send, or the same address with a slash (a folder asked for as a file). */
export type IndexTarget =
  | { kind: 'folder'; title: string; root: boolean; entries: AsyncIterable<IndexEntry> }
  | {
      kind: 'file';
      metadataId: string;
      file: { id: string; name: string; size: number; sha256: string; created_at: string; storage_key: string };
      order: { id: string; applicant_id: string };
    }
  | { kind: 'slash' };

export interface IndexEntry {
  name: string;
  folder: boolean;
  size: number;
}

const noEntry = () => new AppError('NOT_FOUND', 'datasetArchive.noEntry');

/**
 * The path after the index's signature, as the request sent it: each segment decoded on its own
 * (an encoded slash stays inside its segment, and is then refused), never `.`, `..` or empty before
 * the end. Answers the segments and whether the path ends with a slash (a folder).
 */
export function indexPath(rawUrl: string): { segments: string[]; folder: boolean } {
  const pathname = rawUrl.split('?')[0]!;
  const rest = pathname.split('/').slice(7);
  const folder = rest.length === 0 || rest.at(-1) === '';
  const raw = folder ? rest.slice(0, -1) : rest;
  const segments = raw.map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw noEntry();
    }
    if (decoded === '' || decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\u0000')) throw noEntry();
    return decoded;
  });
  return { segments, folder };
}

/** A relative link to an entry of the folder being listed: `./` first, so that no name reads as a scheme (`a:b`). */
function hrefOf(entry: IndexEntry): string {
  return `./${encodeURIComponent(entry.name)}${entry.folder ? '/' : ''}`;
}

/**
 * An order's HTTP index (issue 19): the order's datasets as folders, each its record's tree, every
 * file a download under the index's one signature, as plain HTML listings with relative links, so
 * that `wget -r -np` (and rclone's HTTP remote) fetch the whole tree. The signature and the order
 * (still approved, unexpired; its datasets published and out of their protection period) are checked
 * on every request, as the signed file links are.
 */
export class HttpIndex {
  constructor(
    private readonly orders: OrdersService,
    private readonly files: StoredFiles,
    private readonly linkKey: Buffer,
    private readonly publicUrl: string,
  ) {}

  /** GET /api/account/order/{id}/index-link/: the index of an approved order of the caller (staff: any), until the order expires. */
  async linkFor(user: AuthenticatedUser, orderId: string): Promise<OrderIndexLink> {
    const { order } = await this.orders.queries.orderDatasets(user, orderId);
    const expiresAt = new Date(order.expires_at!);
    const signed = signIndexLink({ orderId: order.id, expiresAt }, this.linkKey);
    const url = `${this.publicUrl}${INDEX_BASE}/${encodeURIComponent(signed.order)}/${signed.expires}/${signed.signature}/`;
    return {
      url,
      expires_at: expiresAt.toISOString(),
      cut_dirs: INDEX_CUT_DIRS,
      wget: `wget -r -l inf -np -nH --cut-dirs=${INDEX_CUT_DIRS} -e robots=off -R 'index.html*' '${url}'`,
    };
  }

  /** What the index's address names, after the signature and the order are checked. */
  async resolve(params: { order: string; expires: string; signature: string }, path: { segments: string[]; folder: boolean }): Promise<IndexTarget> {
    const check = verifyIndexLink(params, this.linkKey);
    if (!check.ok) throw new AppError('FORBIDDEN', check.reason === 'expired' ? 'orders.linkExpired' : 'orders.linkForged');
    const { order, datasets } = await this.orders.queries.signedDatasets(check.link.orderId);
    // Each dataset a folder named after its title in its own language (stable whoever asks), made unique.
    const folders = datasetFolders(datasets.map((d) => ({ id: d.metadata_id, title: (d.language === 'en' ? d.title_en : d.title) || d.title || d.title_en })));
    const [top, ...inner] = path.segments;
    if (top === undefined) {
      const entries = [...folders.values()].map((name) => ({ name, folder: true, size: 0 }));
      return {
        kind: 'folder',
        title: '/',
        root: true,
        entries: (async function* () {
          yield* entries;
        })(),
      };
    }
    const metadataId = [...folders.entries()].find(([, name]) => name === top)?.[0];
    if (!metadataId) throw noEntry();
    if (path.folder) {
      const folder = inner.length ? `/${inner.join('/')}/` : '/';
      const first = await this.files.folder(metadataId, folder, { offset: 0, limit: PAGE });
      if (!first) throw noEntry();
      return { kind: 'folder', title: `/${top}${folder}`, root: false, entries: this.entries(metadataId, folder, first) };
    }
    const name = inner.at(-1);
    if (name === undefined) return { kind: 'slash' };
    const folder = inner.length > 1 ? `/${inner.slice(0, -1).join('/')}/` : '/';
    const file = await this.files.fileAt(metadataId, folder, name);
    if (file) {
      return {
        kind: 'file',
        metadataId,
        file: { id: file.id, name: file.name, size: Number(file.size), sha256: file.sha256, created_at: file.created_at, storage_key: file.storage_key },
        order: { id: order.id, applicant_id: order.applicant_id },
      };
    }
    if (await this.files.folder(metadataId, `${folder}${name}/`, { offset: 0, limit: 0 })) return { kind: 'slash' };
    throw noEntry();
  }

  /** A folder's entries, folders first, by name, read a page at a time. */
  private async *entries(metadataId: string, folder: string, first: { count: number; rows: TreeRow[] }): AsyncIterable<IndexEntry> {
    let page = first;
    for (let offset = 0; ;) {
      for (const entry of page.rows) yield { name: entry.row.name, folder: entry.folder, size: entry.folder ? 0 : Number(entry.row.size) };
      offset += page.rows.length;
      if (page.rows.length < PAGE || offset >= page.count) return;
      const next = await this.files.folder(metadataId, folder, { offset, limit: PAGE });
      if (!next) return;
      page = next;
    }
  }
}

/** A folder's listing as plain HTML: its folders as `name/` and its files as relative links, every name escaped and encoded. */
export async function* listingHtml(target: Extract<IndexTarget, { kind: 'folder' }>, language: Language): AsyncIterable<string> {
  const title = escapeMarkup(translate(language, 'datasetArchive.indexTitle', { path: target.title }));
  yield `<!DOCTYPE html>\n<html lang="${language}"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${title}</title></head>\n<body><h1>${title}</h1>\n<ul>\n`;
  if (!target.root) yield `<li><a href="../">../</a> ${escapeMarkup(translate(language, 'datasetArchive.parent'))}</li>\n`;
  let any = false;
  let lines: string[] = [];
  for await (const entry of target.entries) {
    any = true;
    const label = escapeMarkup(entry.name) + (entry.folder ? '/' : '');
    lines.push(`<li><a href="${escapeMarkup(hrefOf(entry))}">${label}</a>${entry.folder ? '' : ` ${entry.size}`}</li>\n`);
    if (lines.length >= 200) {
      yield lines.join('');
      lines = [];
    }
  }
  if (lines.length) yield lines.join('');
  yield `</ul>\n${any ? '' : `<p>${escapeMarkup(translate(language, 'datasetArchive.empty'))}</p>\n`}</body></html>\n`;
}
