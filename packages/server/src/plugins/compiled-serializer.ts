import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf: [{type: T, ...}, {type: 'null'}]` (zod's `.nullable()`) as `type: [T, 'null']`: the same
 * values, but fast-json-stringify writes a type list directly where it would try each `anyOf`
 * branch with a validator on every reply.
 */
function simplified(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplified);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) out[key] = simplified(value);
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex((branch) => branch.type === 'null' && Object.keys(branch).length === 1);
    const other = anyOf[1 - nullAt];
    if (nullAt >= 0 && other && typeof other.type === 'string' && !('anyOf' in other) && !('oneOf' in other)) {
      const { anyOf: _anyOf, ...rest } = out;
      return { ...rest, ...other, type: [other.type, 'null'], ...(Array.isArray(other.enum) ? { enum: [...other.enum, null] } : {}) };
    }
  }
  return out;
}

/**
 * Reply serializer for zod reply schemas: the same schema (zod's JSON Schema of its output) compiled
 * once by fast-json-stringify, instead of a zod parse and a JSON.stringify on every reply (about
 * three times the time for a record: 62 µs against 22 µs). It writes the schema's properties only,
 * so a field a reply schema does not name (a password hash, a private note) still never leaves,
 * and nested objects likewise. Keys the schema marks optional come after the required ones (JSON
 * objects have no order). A schema JSON Schema cannot express (a transform) keeps zod's serializer.
 */
export const compiledSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(route.schema, { io: 'output', target: 'draft-7' }) as JsonSchema;
  } catch {
    return zodSerializerCompiler(route);
  }
  delete json.$schema;
  return fastJsonStringify(simplified(json) as Parameters<typeof fastJsonStringify>[0]);
};
