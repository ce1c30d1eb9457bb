import type { Language, RecordSnapshot } from '@portal/shared';

/**
 * What changed between two submissions of a record (issue 16: an expert of round 2 had no hint):
 * each field whose text differs, before and after, and for the record's lists (people, keywords,
 * references, funds, files) what came and what went. Labels are catalogue keys of the editor,
 * which names the fields the creator changed.
 */
export type SnapshotChange =
  { kind: 'text'; labelKey: string; language?: Language; before: string; after: string } | { kind: 'list'; labelKey: string; added: string[]; removed: string[] };

type RecordFields = RecordSnapshot['record'];

/** The record's own fields an expert judges, by their editor label. */
const FIELDS: [keyof RecordFields, string][] = [
  ['title', 'editor.fields.title'],
  ['description', 'editor.fields.description'],
  ['time_start', 'editor.fields.timeStart'],
  ['time_end', 'editor.fields.timeEnd'],
  ['time_description', 'editor.fields.timeDescription'],
  ['temporal_resolution', 'editor.fields.temporalResolution'],
  ['west', 'editor.fields.west'],
  ['east', 'editor.fields.east'],
  ['south', 'editor.fields.south'],
  ['north', 'editor.fields.north'],
  ['spatial_resolution', 'editor.fields.spatialResolution'],
  ['projection', 'editor.fields.projection'],
  ['coordinate_system', 'editor.fields.coordinateSystem'],
  ['scale', 'editor.fields.scale'],
  ['data_source', 'editor.fields.dataSource'],
  ['usage_method', 'editor.fields.usageMethod'],
  ['use_term', 'editor.fields.useTerm'],
  ['citation', 'editor.fields.citation'],
  ['file_size', 'editor.fields.fileSize'],
  ['license', 'editor.fields.license'],
  ['sharing_policy', 'editor.fields.sharingPolicy'],
  ['protection_period', 'editor.fields.protectionPeriod'],
  ['protection_description', 'editor.fields.protectionDescription'],
  ['dist_unit', 'editor.fields.dist_unit'],
  ['dist_address', 'editor.fields.dist_address'],
  ['dist_email', 'editor.fields.dist_email'],
];

/** The translated fields of the record's version in its other language (the Translations tab), labelled with that language. */
const TRANSLATED: [string, string][] = [
  ['title', 'review.ui.changes.translatedTitle'],
  ['description', 'review.ui.changes.translatedDescription'],
];

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value).trim());

const otherLanguage = (record: RecordFields): Language => (record.language === 'en' ? 'zh-hans' : 'en');

function translationOf(record: RecordFields): Record<string, unknown> {
  const other = otherLanguage(record);
  return (record.translations?.find((version) => version.language === other) ?? {}) as Record<string, unknown>;
}

/** A list's entries: `key` compares them (a file by its content too), `text` is what the reader sees. */
type Entry = { key: string; text: string };
const same = (text: string): Entry => ({ key: text, text });
const stored = (file: { name: string; size: number; sha256: string }): Entry => ({ key: `${file.name}\u0000${file.sha256 || file.size}`, text: file.name });

function entriesOf(snapshot: RecordSnapshot, roleName: (role: string) => string) {
  const people = new Map<string, { name: string; roles: string[] }>();
  for (const link of snapshot.authors) {
    if (!link.author_detail) continue;
    const person = people.get(link.author_id) ?? { name: [link.author_detail.name, link.author_detail.affiliation].filter(Boolean).join(', '), roles: [] };
    person.roles.push(roleName(link.role));
    people.set(link.author_id, person);
  }
  return {
    people: [...people.values()].map((person) => same(`${person.name} (${person.roles.sort().join(', ')})`)),
    keywords: snapshot.keywords.flatMap((link) => (link.keyword_detail ? [same(link.keyword_detail.name)] : [])),
    literature: snapshot.literature.flatMap((link) => (link.literature_detail ? [same(link.literature_detail.title || link.literature_detail.title_en)] : [])),
    funds: snapshot.funds.flatMap((link) => (link.fund_detail ? [same(link.fund_detail.name || link.fund_detail.name_en)] : [])),
    thumbnail: snapshot.thumbnail ? [stored(snapshot.thumbnail)] : [],
    files: snapshot.files.map(stored),
    documents: snapshot.documents.map(stored),
  };
}

const LISTS: [keyof ReturnType<typeof entriesOf>, string][] = [
  ['people', 'review.ui.changes.people'],
  ['keywords', 'editor.tabs.keywords'],
  ['literature', 'editor.tabs.reference'],
  ['funds', 'editor.fields.funds'],
  ['thumbnail', 'editor.tabs.thumbnail'],
  ['files', 'editor.tabs.files'],
  ['documents', 'editor.tabs.documents'],
];

/** `roleName` names a person's role (`resourceProvider`) in the page's language. */
export function snapshotChanges(before: RecordSnapshot, after: RecordSnapshot, roleName: (role: string) => string = (role) => role): SnapshotChange[] {
  const changes: SnapshotChange[] = [];
  for (const [field, labelKey] of FIELDS) {
    const [was, is] = [text(before.record[field]), text(after.record[field])];
    if (was !== is) changes.push({ kind: 'text', labelKey, before: was, after: is });
  }
  const [wasOther, isOther] = [translationOf(before.record), translationOf(after.record)];
  for (const [field, labelKey] of TRANSLATED) {
    const [was, is] = [text(wasOther[field]), text(isOther[field])];
    if (was !== is) changes.push({ kind: 'text', labelKey, language: otherLanguage(after.record), before: was, after: is });
  }
  const [wasLists, isLists] = [entriesOf(before, roleName), entriesOf(after, roleName)];
  for (const [list, labelKey] of LISTS) {
    const has = (entries: Entry[], entry: Entry) => entries.some((other) => other.key === entry.key);
    const added = isLists[list].filter((entry) => !has(wasLists[list], entry)).map((entry) => entry.text);
    const removed = wasLists[list].filter((entry) => !has(isLists[list], entry)).map((entry) => entry.text);
    if (added.length || removed.length) changes.push({ kind: 'list', labelKey, added, removed });
  }
  return changes;
}
