/** A table made from a record's workbook or CSV file (migration 0021; modules/tables writes it). */
export interface DataTablesTable {
  id: string;
  /** The name of the table that holds its rows (`t_` and random letters); unique. */
  code: string;
  metadata_id: string;
  /** The data file (meta_file) it was read from. */
  file_id: string;
  sheet: string;
  header_rows: number;
  /** Its title, as the provider named it. */
  name: string;
  /** Its columns as declared: JSON of [{field, display_name, display_name_en, unit, note, type}]. */
  columns: string;
  /** bigint: a string on PostgreSQL. */
  row_count: number | string;
  /** 'loading' while its rows go in, 'ready' after. */
  state: string;
  created_by: string;
  created_at: string;
}

export interface TablesTables {
  data_tables: DataTablesTable;
}
