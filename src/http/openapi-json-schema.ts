// A zod schema as the OpenAPI 3.1 document's JSON Schema (draft 2020-12, without `$schema`): for the
// operations (openapi-document.ts) and the callbacks' bodies (openapi-callbacks.ts).
import type { $ZodType } from "zod/v4/core";
import * as z from "../lib/lazy-zod";

export function jsonSchema(schema: $ZodType, io: "input" | "output"): Record<string, unknown> {
  // The real schema: zod keys descriptions by it, not by a stand-in of lib/lazy-zod (where deferral is on).
  const { $schema: _ignored, ...rest } = z.toJSONSchema(z.built(schema), { io, unrepresentable: "any", target: "draft-2020-12" });
  return rest;
}
