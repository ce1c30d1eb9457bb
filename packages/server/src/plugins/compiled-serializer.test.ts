import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { metadataRecordPageSchema, metadataRecordSchema } from '@portal/shared/contracts/metadata-replies';
import { compiledSerializerCompiler } from './compiled-serializer.js';

const compile = (schema: z.ZodType) => compiledSerializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (data: unknown) => string;

type Property = { type?: string | string[]; anyOf?: { type: string }[]; enum?: string[]; properties?: Record<string, Property>; items?: Property };

/** A value of every field of an object schema: text, numbers, null where the field may be null, or not. */
function sampleOf(json: Property, nulls: boolean): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    const types = [property.type ?? property.anyOf?.map((branch) => branch.type) ?? []].flat();
    const type = types.find((t) => t !== 'null');
    if (nulls && types.includes('null')) value[name] = null;
    else if (property.enum) value[name] = property.enum[0];
    else if (type === 'number') value[name] = 12.5;
    else if (type === 'array') value[name] = property.items?.type === 'object' ? [sampleOf(property.items, nulls)] : ['5', '6'];
    else value[name] = `「${name}」 "quoted" \\ </script>`;
  }
  return value;
}

const sampleRecord = (nulls: boolean) => sampleOf(z.toJSONSchema(metadataRecordSchema, { io: 'output' }) as Property, nulls);

describe('compiledSerializerCompiler', () => {
  it('writes a record as zod would (the same JSON), with null where a field may be null, and without the fields that are optional and absent', () => {
    const serialize = compile(metadataRecordSchema);
    for (const nulls of [false, true]) {
      const record = sampleRecord(nulls);
      const expected = metadataRecordSchema.parse(record);
      expect(JSON.parse(serialize(record))).toEqual(JSON.parse(JSON.stringify(expected)));
      delete record.download_count;
      delete record.translations;
      expect(JSON.parse(serialize(record))).toEqual(JSON.parse(JSON.stringify(metadataRecordSchema.parse(record))));
    }
  });

  it('never writes a field the schema does not name, at the top, in a nested object or in a page of records', () => {
    const record = {
      ...sampleRecord(false),
      password_hash: '$argon2id$secret',
      translations: [{ ...(sampleRecord(false).translations as object[])[0], title: 'T', private_note: 'secret' }],
    };
    const text = compile(metadataRecordSchema)(record);
    expect(text).not.toContain('secret');
    expect(JSON.parse(text).translations[0].title).toBe('T');
    const page = compile(metadataRecordPageSchema)({ count: 1, next: null, previous: null, results: [record], internal: 'secret' });
    expect(page).not.toContain('secret');
    expect(JSON.parse(page)).toMatchObject({ count: 1, next: null, results: [{ id: (record as { id?: unknown }).id }] });
  });

  it('keeps zod for a schema JSON Schema cannot express (a transform)', () => {
    const serialize = compile(z.object({ at: z.date().transform((d) => d.toISOString().slice(0, 10)) }));
    expect(JSON.parse(serialize({ at: new Date('2026-11-26T12:00:00Z') }))).toEqual({ at: '2026-11-26' });
  });
});
