import { z } from 'zod';

/** One entry of a record's file tree (GET /api/data/file/): a data file, or a folder (size 0, no SHA-256). */
export const fileEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The folder holding it: '/' or '/a/b/'. */
  path: z.string(),
  is_folder: z.boolean(),
  size: z.number(),
  sha256: z.string(),
  created: z.string(),
  modified: z.string(),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

/** One page of a folder; `count` and `bytes` are of the whole folder (its entries, the bytes of its files), not of the page. */
export const fileFolderPageSchema = z.object({ count: z.number(), bytes: z.number(), results: z.array(fileEntrySchema) });
export type FileFolderPage = z.infer<typeof fileFolderPageSchema>;

export const FILE_ORDERINGS = ['name', '-name', 'size', '-size', 'modified', '-modified'] as const;
export type FileOrdering = (typeof FILE_ORDERINGS)[number];
