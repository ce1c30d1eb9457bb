import { FACET_VALUES_MAX } from '@portal/shared';
import type { Db, Dialect } from '../../db/index.js';

/**
 * The facet values and publication time of every indexed record, held in memory to count the facets
 * of a result and to choose its page: a result of 20,000 records has about 250,000 facet rows, which
 * SQL joins and groups in hundreds of milliseconds, and sorting it by relevance or date costs SQL
 * tens; done here from the result's entry numbers each takes a millisecond or two.
 *
 * The database stays the truth. Every transaction that changes the index takes the next
 * `search_state.version` and marks what it writes with it (and what it removes, in
 * `search_removed`); a rebuild takes a new epoch. Before counting, the cache is brought to at least
 * the version the result was read at, reading only what changed since (one transaction, one
 * snapshot), or everything after a new epoch. So any number of instances count the same, and an
 * instance never counts from a state older than the result it counts.
 */

export interface FacetCountRow {
  facet: string;
  value: string;
  label_zh: string;
  label_en: string;
  n: number;
}

export interface IndexState {
  version: number;
  epoch: string;
}

/** Single-valued facets, kept as columns of the entry. */
export const COLUMN_FACETS = { license: 'license', sharing: 'sharing', temporal_resolution: 'temporal_resolution', language: 'language', year: 'year' } as const;

interface FacetValue {
  facet: string;
  value: string;
  label_zh: string;
  label_en: string;
}

/** Where an entry's facet ordinals are held (FacetCache.where). */
const IN_BASE = 1;
const CHANGED = 2;
const EMPTY = new Uint32Array(0);
/** Entries written since the flat array was built before it is built again (or a sixteenth of the catalogue, when more). */
const COMPACT_AFTER = 4096;

export class FacetCache {
  private state: IndexState = { version: -1, epoch: '' };
  /** Facet values by ordinal, and the ordinal of each `facet\u0000value`. */
  private values: FacetValue[] = [];
  private ordinals = new Map<string, number>();
  /**
   * The ordinals of each indexed entry's facet values, by entry number (doc), in one flat array as
   * loaded (compressed rows: entry `doc`'s are `base[baseStart[doc]]` up to `base[baseStart[doc + 1]]`)
   * and, for the entries written since, in `changed`; `where[doc]` says which (0 none, IN_BASE,
   * CHANGED). A result's thousands of entries are read on every search: one array in order reads
   * several times faster than a small array an entry scattered over the heap.
   */
  private base = new Uint32Array(0);
  private baseStart = new Uint32Array(1);
  private where = new Uint8Array(0);
  private changed = new Map<number, Uint32Array>();
  /** Each entry's publication time (ms), by entry number. */
  private published = new Float64Array(0);
  private entries = 0;
  /** How many entries hold each value. */
  private totals: number[] = [];
  private refreshing: Promise<void> | null = null;

  /** `compactAfter`: entries written since the flat array was built before it is built again (tests vary it). */
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly options: { compactAfter: number } = { compactAfter: COMPACT_AFTER },
  ) {}

  /** Entries indexed (at the version the cache is at). */
  get size(): number {
    return this.entries;
  }

  /** The index's state now. */
  async current(): Promise<IndexState> {
    const row = await this.db.selectFrom('search_state').select(['version', 'epoch']).where('id', '=', 1).executeTakeFirstOrThrow();
    return { version: Number(row.version), epoch: row.epoch };
  }

  /** Brings the cache to `state` (or later). Concurrent callers share one read. */
  async reach(state: IndexState): Promise<void> {
    while (this.state.epoch !== state.epoch || this.state.version < state.version) {
      if (!this.refreshing) {
        this.refreshing = this.refresh().finally(() => {
          this.refreshing = null;
        });
      }
      await this.refreshing;
    }
  }

  /** The FACET_VALUES_MAX most frequent values of each facet among these entries. */
  countsOf(docs: readonly number[]): FacetCountRow[] {
    const counts = new Uint32Array(this.values.length);
    const { base, baseStart, where } = this;
    for (let i = 0; i < docs.length; i += 1) {
      const doc = docs[i]!;
      const at = where[doc];
      if (at === IN_BASE) {
        for (let j = baseStart[doc]!, end = baseStart[doc + 1]!; j < end; j += 1) counts[base[j]!]! += 1;
      } else if (at === CHANGED) {
        const ordinals = this.changed.get(doc)!;
        for (let j = 0; j < ordinals.length; j += 1) counts[ordinals[j]!]! += 1;
      }
    }
    return this.top(counts);
  }

  /**
   * Entries `offset` to `offset + limit` of `docs` in the order of `score` (highest first, when
   * given), then newest first, then the later entry first: what the SQL order of the newest sort
   * gives, without sorting the whole result.
   */
  page(docs: readonly number[], offset: number, limit: number, score?: ArrayLike<number>): number[] {
    const wanted = offset + limit;
    if (wanted <= 0 || !docs.length) return [];
    const published = this.published;
    // a before b: higher score, newer, larger doc.
    const before = (a: number, b: number) => {
      const s = score ? score[a]! - score[b]! : 0;
      if (s) return s > 0;
      const p = (published[a] ?? 0) - (published[b] ?? 0);
      return p ? p > 0 : a > b;
    };
    if (wanted * 8 >= docs.length) {
      return [...docs].sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1)).slice(offset, wanted);
    }
    // The best `wanted` kept in order; most entries are rejected by one comparison with the last.
    const best: number[] = [];
    for (const doc of docs) {
      if (best.length === wanted && !before(doc, best[wanted - 1]!)) continue;
      let low = 0;
      let high = best.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (before(best[middle]!, doc)) low = middle + 1;
        else high = middle;
      }
      best.splice(low, 0, doc);
      if (best.length > wanted) best.pop();
    }
    return best.slice(offset);
  }

  /**
   * The entries of `docs` (of every entry, when null) that hold, for each facet of `required`, at
   * least one of its values: facet filters answered from the copy, where SQL needs tens of
   * milliseconds to intersect the facets of large results (a theme and a place of 100,000 records).
   */
  withFacets(docs: readonly number[] | null, required: readonly { facet: string; values: readonly string[] }[]): number[] {
    // Each value's ordinal marks the bit of its facet; an entry passes when its values set every bit.
    const bits = new Uint32Array(this.values.length);
    for (const [i, { facet, values }] of required.entries()) {
      for (const value of values) {
        const ordinal = this.ordinals.get(`${facet}\u0000${value}`);
        if (ordinal !== undefined) bits[ordinal]! |= 1 << i;
      }
    }
    // One bit a facet: the catalogue has ten.
    const all = (1 << required.length) - 1;
    const { base, baseStart, where } = this;
    const passes = (doc: number) => {
      const at = where[doc];
      let held = 0;
      if (at === IN_BASE) {
        for (let j = baseStart[doc]!, end = baseStart[doc + 1]!; j < end; j += 1) held |= bits[base[j]!]!;
      } else if (at === CHANGED) {
        const ordinals = this.changed.get(doc)!;
        for (let j = 0; j < ordinals.length; j += 1) held |= bits[ordinals[j]!]!;
      } else return false;
      return held >>> 0 === all;
    };
    const found: number[] = [];
    if (docs) {
      for (let i = 0; i < docs.length; i += 1) if (passes(docs[i]!)) found.push(docs[i]!);
    } else {
      for (let doc = 0; doc < where.length; doc += 1) if (passes(doc)) found.push(doc);
    }
    return found;
  }

  /** The counts of the whole catalogue. */
  totalCounts(): FacetCountRow[] {
    return this.top(this.totals);
  }

  private top(counts: ArrayLike<number>): FacetCountRow[] {
    const byFacet = new Map<string, FacetCountRow[]>();
    for (let ordinal = 0; ordinal < this.values.length; ordinal += 1) {
      const n = counts[ordinal]!;
      if (!n) continue;
      const value = this.values[ordinal]!;
      const list = byFacet.get(value.facet) ?? [];
      list.push({ ...value, n });
      byFacet.set(value.facet, list);
    }
    return [...byFacet.values()].flatMap((list) => list.sort((a, b) => b.n - a.n || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, FACET_VALUES_MAX));
  }

  private ordinalOf(facet: string, value: string, label_zh: string, label_en: string): number {
    const key = `${facet}\u0000${value}`;
    let ordinal = this.ordinals.get(key);
    if (ordinal === undefined) {
      ordinal = this.values.length;
      this.values.push({ facet, value, label_zh, label_en });
      this.ordinals.set(key, ordinal);
      this.totals.push(0);
    } else if (label_zh || label_en) {
      // The labels of the entry written last.
      this.values[ordinal] = { facet, value, label_zh, label_en };
    }
    return ordinal;
  }

  /** Reads what changed since the cache's version, in one snapshot. */
  private async refresh(): Promise<void> {
    let transaction = this.db.transaction();
    if (this.dialect === 'postgres') transaction = transaction.setIsolationLevel('repeatable read');
    await transaction.execute(async (trx) => {
      const row = await trx.selectFrom('search_state').select(['version', 'epoch']).where('id', '=', 1).executeTakeFirstOrThrow();
      const target = { version: Number(row.version), epoch: row.epoch };
      const anew = target.epoch !== this.state.epoch;
      const since = anew ? -1 : this.state.version;
      const [entries, facets, removed] = await Promise.all([
        trx.selectFrom('search_entries').select(['doc', 'license', 'sharing', 'temporal_resolution', 'language', 'year', 'published_at']).where('version', '>', since).execute(),
        trx
          .selectFrom('search_facets')
          .innerJoin('search_entries', 'search_entries.doc', 'search_facets.doc')
          .select(['search_facets.doc', 'search_facets.facet', 'search_facets.value', 'search_facets.label_zh', 'search_facets.label_en'])
          .where('search_entries.version', '>', since)
          .execute(),
        anew ? Promise.resolve([]) : trx.selectFrom('search_removed').select('doc').where('version', '>', since).execute(),
      ]);
      if (anew) {
        this.values = [];
        this.ordinals = new Map();
        this.base = new Uint32Array(0);
        this.baseStart = new Uint32Array(1);
        this.where = new Uint8Array(0);
        this.changed = new Map();
        this.published = new Float64Array(0);
        this.entries = 0;
        this.totals = [];
      }
      for (const { doc } of removed) this.drop(Number(doc));
      const listed = new Map<number, number[]>();
      for (const entry of entries) {
        const doc = Number(entry.doc);
        this.drop(doc);
        this.reserve(doc);
        this.published[doc] = Date.parse(entry.published_at) || 0;
        const ordinals: number[] = [];
        for (const [facet, column] of Object.entries(COLUMN_FACETS)) {
          const value = entry[column];
          if (value) ordinals.push(this.ordinalOf(facet, value, '', ''));
        }
        listed.set(doc, ordinals);
      }
      for (const f of facets) listed.get(Number(f.doc))?.push(this.ordinalOf(f.facet, f.value, f.label_zh, f.label_en));
      for (const [doc, ordinals] of listed) {
        this.changed.set(doc, Uint32Array.from(ordinals));
        this.where[doc] = CHANGED;
        this.entries += 1;
        for (const ordinal of ordinals) this.totals[ordinal]! += 1;
      }
      // A whole load, or many entries written since the last: into the flat array.
      if (this.changed.size > 0 && (anew || this.changed.size > Math.max(this.options.compactAfter, this.entries >> 4))) this.compact();
      this.state = target;
    });
  }

  /** Room in the arrays by entry number for entry `doc` (they grow by doubling). */
  private reserve(doc: number): void {
    if (doc < this.where.length) return;
    const length = Math.max(doc + 1, this.where.length * 2);
    const where = new Uint8Array(length);
    where.set(this.where);
    this.where = where;
    const published = new Float64Array(length);
    published.set(this.published);
    this.published = published;
  }

  /** An entry's ordinals, wherever they are (empty when it has none). */
  private ordinalsOf(doc: number): Uint32Array {
    const at = this.where[doc];
    if (at === IN_BASE) return this.base.subarray(this.baseStart[doc]!, this.baseStart[doc + 1]!);
    if (at === CHANGED) return this.changed.get(doc)!;
    return EMPTY;
  }

  /** Every entry's ordinals into one flat array again; `changed` empties. */
  private compact(): void {
    const docs = this.where.length;
    let total = 0;
    for (let doc = 0; doc < docs; doc += 1) if (this.where[doc]) total += this.ordinalsOf(doc).length;
    const base = new Uint32Array(total);
    const baseStart = new Uint32Array(docs + 1);
    let at = 0;
    for (let doc = 0; doc < docs; doc += 1) {
      baseStart[doc] = at;
      if (!this.where[doc]) continue;
      const ordinals = this.ordinalsOf(doc);
      base.set(ordinals, at);
      at += ordinals.length;
    }
    baseStart[docs] = at;
    for (let doc = 0; doc < docs; doc += 1) if (this.where[doc]) this.where[doc] = IN_BASE;
    this.base = base;
    this.baseStart = baseStart;
    this.changed = new Map();
  }

  private drop(doc: number): void {
    if (!this.where[doc]) return;
    for (const ordinal of this.ordinalsOf(doc)) this.totals[ordinal]! -= 1;
    this.where[doc] = 0;
    this.changed.delete(doc);
    this.entries -= 1;
  }
}
