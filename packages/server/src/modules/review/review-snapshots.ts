import { recordSnapshotSchema, type RecordSnapshot, type RoundSnapshot } from '@portal/shared/contracts/review';
import { newId, type Db } from '../../db/index.js';
import type { AuthenticatedUser } from '../account/index.js';
import { mediaImagePath, StoredFiles } from '../files/index.js';
import { RESOURCES, ResourceService, type MetadataAccess, type MetadataService } from '../metadata/index.js';

/** More than any record holds (the editor's limits are far lower): the whole list in one read. */
const ALL = { offset: 0, limit: 10_000 };

type Row = Record<string, unknown>;
const blank = (row: Row | null | undefined, fields: readonly string[]) => {
  if (row) for (const field of fields) if (field in row) row[field] = '';
};

/**
 * The record as submitted for a round of review (issue 16): taken when the creator submits, kept
 * per record and round (review_snapshots, migration 0010), read by the round's experts and staff.
 */
export class ReviewSnapshots {
  private readonly resources: ResourceService;
  private readonly files: StoredFiles;

  constructor(
    private readonly db: Db,
    access: MetadataAccess,
    private readonly metadata: MetadataService,
  ) {
    this.resources = new ResourceService(db, access);
    this.files = new StoredFiles(db);
  }

  /**
   * What the record holds now, read as its creator reads it, in the shapes of the record's own
   * calls, without anybody's contacts (the experts read it). Read before the submission's
   * transaction: SQLite has one connection, which the transaction holds.
   */
  async capture(creator: AuthenticatedUser, metadataId: string): Promise<RecordSnapshot> {
    const list = async (name: string) => {
      const def = RESOURCES.find((resource) => resource.name === name)!;
      return (await this.resources.list(def, creator, { metadata__id: metadataId }, ALL.offset, ALL.limit)).results as Row[];
    };
    const [record, authors, keywords, literature, funds, files, documents, media] = await Promise.all([
      this.metadata.get(creator, metadataId),
      list('meta-author'),
      list('meta-keyword'),
      list('citation'),
      list('meta-fund'),
      this.files.page('file', metadataId, ALL),
      this.files.page('attach', metadataId, ALL),
      this.files.mediaPage(metadataId, 'thumbnail', { offset: 0, limit: 1 }),
    ]);
    for (const link of authors) {
      const author = link.author_detail as Row | null;
      blank(author, ['email', 'phone', 'address', 'zipcode']);
      for (const version of (author?.translations as Row[] | undefined) ?? []) blank(version, ['address']);
    }
    for (const link of funds) blank(link.fund_detail as Row | null, ['phone', 'email']);
    const fileView = (row: { id: string; metadata_id: string; name: string; size: number | string; mime: string; sha256: string; created_at: string }) => ({
      id: row.id,
      metadata: row.metadata_id,
      name: row.name,
      size: Number(row.size),
      mime: row.mime,
      sha256: row.sha256,
      created_at: row.created_at,
    });
    const thumbnail = media.rows[0];
    // Parsed by the contract: only the fields the record's calls answer are kept.
    return recordSnapshotSchema.parse({
      record,
      authors,
      keywords,
      literature,
      funds,
      thumbnail: thumbnail
        ? { ...fileView(thumbnail), type: thumbnail.type, image: mediaImagePath(thumbnail.id), original: `${mediaImagePath(thumbnail.id)}?size=original` }
        : null,
      files: files.rows.map(fileView),
      documents: documents.rows.map(fileView),
    });
  }

  /** Keeps the snapshot of a round, replacing one kept for it before (a record taken back and submitted again). */
  async store(trx: Db, metadataId: string, round: number, snapshot: RecordSnapshot): Promise<void> {
    await trx.deleteFrom('review_snapshots').where('metadata_id', '=', metadataId).where('round', '=', round).execute();
    await trx
      .insertInto('review_snapshots')
      .values({ id: newId(), metadata_id: metadataId, round, snapshot: JSON.stringify(snapshot), created_at: new Date().toISOString() })
      .execute();
  }

  /** The snapshots of a round and of the round before it, where kept. */
  async ofRound(metadataId: string, round: number): Promise<{ current: RoundSnapshot | null; previous: RoundSnapshot | null }> {
    const rows = await this.db
      .selectFrom('review_snapshots')
      .select(['round', 'snapshot', 'created_at'])
      .where('metadata_id', '=', metadataId)
      .where('round', 'in', [round, round - 1])
      .execute();
    const of = (wanted: number): RoundSnapshot | null => {
      const row = rows.find((r) => Number(r.round) === wanted);
      return row ? { round: wanted, taken_at: row.created_at, snapshot: JSON.parse(row.snapshot) as RecordSnapshot } : null;
    };
    return { current: of(round), previous: of(round - 1) };
  }
}
