import { describe, expect, it } from 'vitest';
import type { RecordSnapshot } from '@portal/shared';
import { snapshotChanges } from './snapshotChanges';

/** A submitted record with one person, two keywords and a data file; `change` edits a copy. */
function buildSnapshot(change: (snapshot: RecordSnapshot) => void = () => undefined): RecordSnapshot {
  const author = (id: string, name: string) => ({
    id,
    name,
    email: '',
    affiliation: 'ITP CAS',
    phone: '',
    address: '',
    country: '',
    province: '',
    city: '',
    zipcode: '',
    created_by: null,
    created_at: '',
    translations: [],
  });
  const keyword = (id: string, name: string) => ({
    id: `mk-${id}`,
    metadata_id: 'r1',
    keyword_id: id,
    keyword_detail: { id, name, type: 'theme', language: 'zh-hans' as const, created_by: null, created_at: '', translations: [] },
  });
  const snapshot = {
    record: {
      id: 'r1',
      language: 'zh-hans',
      title: '冰川面积',
      description: '摘要',
      time_start: '1990-01-01',
      east: 105,
      translations: [{ id: 't1', metadata_id: 'r1', language: 'en', title: 'Glacier area', description: 'Abstract' }],
    },
    authors: [{ id: 'ma1', metadata_id: 'r1', author_id: 'a1', role: 'resourceProvider', event_date: '', sort: 0, author_detail: author('a1', '张冰川') }],
    keywords: [keyword('k1', '冰川'), keyword('k2', '青藏高原')],
    literature: [],
    funds: [],
    thumbnail: null,
    files: [{ id: 'f1', metadata: 'r1', name: 'glacier.csv', size: 10, mime: 'text/csv', sha256: 'aa', created_at: '' }],
    documents: [],
  } as unknown as RecordSnapshot;
  const copy = structuredClone(snapshot);
  change(copy);
  return copy;
}

describe('snapshotChanges', () => {
  it('finds nothing between two equal submissions', () => {
    expect(snapshotChanges(buildSnapshot(), buildSnapshot())).toEqual([]);
  });

  it('names each changed field with its editor label, before and after', () => {
    const after = buildSnapshot((s) => {
      s.record.title = '冰川面积（分流域）';
      s.record.east = 106;
      s.record.translations![0]!.description = 'Abstract, per basin';
    });
    expect(snapshotChanges(buildSnapshot(), after)).toEqual([
      { kind: 'text', labelKey: 'editor.fields.title', before: '冰川面积', after: '冰川面积（分流域）' },
      { kind: 'text', labelKey: 'editor.fields.east', before: '105', after: '106' },
      { kind: 'text', labelKey: 'review.ui.changes.translatedDescription', language: 'en', before: 'Abstract', after: 'Abstract, per basin' },
    ]);
  });

  it("lists what came and went in the record's lists: people with their roles, keywords, files", () => {
    const after = buildSnapshot((s) => {
      s.authors[0]!.role = 'principalInvestigator';
      s.keywords.pop();
      s.keywords.push({ ...s.keywords[0]!, keyword_id: 'k3', keyword_detail: { ...s.keywords[0]!.keyword_detail!, id: 'k3', name: '祁连山' } });
      s.files[0]!.sha256 = 'bb';
    });
    const roleName = (role: string) => ({ resourceProvider: 'Provider', principalInvestigator: 'PI' })[role] ?? role;
    expect(snapshotChanges(buildSnapshot(), after, roleName)).toEqual([
      { kind: 'list', labelKey: 'review.ui.changes.people', added: ['张冰川, ITP CAS (PI)'], removed: ['张冰川, ITP CAS (Provider)'] },
      { kind: 'list', labelKey: 'editor.tabs.keywords', added: ['祁连山'], removed: ['青藏高原'] },
      // The same name, other content: replaced.
      { kind: 'list', labelKey: 'editor.tabs.files', added: ['glacier.csv'], removed: ['glacier.csv'] },
    ]);
  });
});
