/** A record in the OAI-PMH feed (every record ever published; see migration 0005). */
export interface OaiItemTable {
  metadata_id: string;
  /** `YYYY-MM-DDThh:mm:ssZ`. */
  datestamp: string;
  deleted: number;
  has_doi: number;
}

export interface OaiItemSetTable {
  spec: string;
  metadata_id: string;
  datestamp: string;
}

export interface OaiSetTable {
  spec: string;
  name_zh: string;
  name_en: string;
}

/** The OAI-PMH module's tables: the feed's items and sets (modules/oai: oai-index.ts writes them; migration 0005). */
export interface OaiTables {
  oai_items: OaiItemTable;
  oai_item_sets: OaiItemSetTable;
  oai_sets: OaiSetTable;
}
