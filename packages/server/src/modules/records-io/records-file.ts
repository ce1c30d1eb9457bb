import { ImportRefusal, type Candidate } from './candidates.js';
import { readDataCite } from './datacite.js';

/** A file of records to import, told apart by its first character: DataCite XML or the portal's JSON export. */
export type RecordsFileFormat = 'datacite-xml' | 'portal-json';

export function readRecordsFile(content: string): { format: RecordsFileFormat; candidates: Candidate[] } {
  const text = content.replace(/^\uFEFF/, '');
  const start = text.trimStart()[0];
  if (start === '<') return { format: 'datacite-xml', candidates: readDataCite(text) };
  if (start === '[' || start === '{') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ImportRefusal(`not valid JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed)) throw new ImportRefusal('the JSON is not an array of records (the format export-records writes)');
    return {
      format: 'portal-json',
      candidates: parsed.map((value, index) =>
        value !== null && typeof value === 'object' && !Array.isArray(value) ? { position: index + 1, value } : { position: index + 1, error: 'not a record (a JSON object)' },
      ),
    };
  }
  throw new ImportRefusal(start === undefined ? 'the file is empty' : 'neither DataCite XML nor the JSON that export-records writes');
}
