// The option keys of a factory whose options are a zod schema (the middleware, the AI SDK host):
// read from the schema, which also gives the options' type, so the two cannot drift apart.
import { z } from "zod";
import type { OptionKeys } from "../errors/known-options.js";

/** The keys of `schema`'s shape, with the keys of each option that is itself a plain object schema. */
export function schemaOptionKeys(schema: z.ZodObject): OptionKeys {
  const keys: Record<string, true | OptionKeys> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const nested = objectSchemaOf(field as z.ZodType);
    keys[key] = nested === undefined ? true : schemaOptionKeys(nested);
  }
  return keys;
}

// The object schema an option holds, through optional, default and readonly wrappers, and the
// one object of a union (`lockfile`: a path or `{ path, mode }`).
function objectSchemaOf(schema: z.ZodType): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodReadonly
  )
    return objectSchemaOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    const objects = (schema.options as z.ZodType[]).map(objectSchemaOf).filter((object) => object !== undefined);
    return objects.length === 1 ? objects[0] : undefined;
  }
  return undefined;
}
