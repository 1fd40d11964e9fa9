// fast-check arbitraries read off the JSON Schemas of the OpenAPI document: values a schema accepts,
// values it refuses, and junk. Only the keywords the document uses are read; an unknown one fails loudly
// so that a new kind of field cannot be silently skipped by the suite.
import fc from "fast-check";
import type { Schema } from "./openapi-walk";

const KNOWN = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "enum",
  "const",
  "anyOf",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "default",
  "description",
  "format",
  "items",
  "minItems",
  "maxItems",
  "oneOf",
]);

function checkKeywords(schema: Schema) {
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) throw new Error(`schema keyword ${key} is not handled by the generators`);
}

/** Field names whose meaning the schema cannot say (a date, a URL): valid values need a hint. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const unicodeText = (max: number) => fc.string({ unit: "grapheme", maxLength: max });

/** A value the schema accepts (and, through the hints, mostly one the domain accepts too). */
export function validValue(schema: Schema, hints: Hints = {}, name = ""): fc.Arbitrary<unknown> {
  if (name && hints[name]) return hints[name]!;
  checkKeywords(schema);
  if ("const" in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => validValue(s, hints, name)));
  // A discriminated union (each branch an object with its own `const` tag): any branch's valid value.
  if (schema.oneOf) return fc.oneof(...(schema.oneOf as Schema[]).map((s) => validValue(s, hints, name)));
  switch (schema.type) {
    case "string": {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 60, minLength + 60);
      // Printable text without surrounding spaces, so trimming fields keep their length.
      return fc
        .string({
          unit: fc.oneof(
            fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
            fc.constantFrom("é", "ß", "李", "😀"),
          ),
          minLength: Math.max(minLength, 1),
          maxLength: Math.max(maxLength, 1),
        })
        .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
    }
    case "integer":
      return fc.integer({
        min: Math.max(schema.minimum ?? -1e6, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1e6, Number.MAX_SAFE_INTEGER),
      });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const bounds = {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min(3, (schema.maxItems as number | undefined) ?? 3),
      };
      // A list of choices (an enum's values) names each at most once.
      const items = schema.items ?? {};
      return items.enum ? fc.uniqueArray(validValue(items, hints), bounds) : fc.array(validValue(items, hints), bounds);
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const shape = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validValue(s, hints, key)]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []) as string[] });
    }
    default:
      throw new Error(`no generator for schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

const typeOf = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;

/** Values of every JSON type, nested, with unicode and prototype-pollution keys. */
export const junkValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      "",
      " ",
      "\u0000",
      "\u202e",
      "💥",
      "NaN",
      "null",
      "[]",
      "{}",
    ),
    unicodeText(40),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie("value"), { maxLength: 3 }),
    fc
      .dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "prototype")), tie("value"), {
        maxKeys: 3,
      })
      .map(ownKeys),
  ),
})).value;

/** Rebuilds an object so a `__proto__` key is an own property (as JSON.parse makes it), not the prototype. */
function ownKeys(record: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record))
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** Any value whose JSON type the schema does not allow. */
function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const allowed = new Set<string>();
  const collect = (s: Schema) => {
    if (s.anyOf) s.anyOf.forEach(collect);
    else if (s.oneOf) s.oneOf.forEach(collect);
    else if ("const" in s) allowed.add(typeOf(s.const));
    else if (s.enum) for (const v of s.enum as unknown[]) allowed.add(typeOf(v));
    else if (s.type) allowed.add(s.type);
    if (s.type === "number") allowed.add("integer");
  };
  collect(schema);
  if (allowed.size === 0) return fc.constant(undefined).filter(() => false);
  return junkValue.filter((value) => {
    const type = typeOf(value);
    return !allowed.has(type) && !(type === "integer" && allowed.has("number"));
  });
}

const tooLong = (max: number) =>
  fc
    .integer({ min: max + 1, max: max + 40 })
    .chain((n) => fc.string({ unit: fc.constantFrom("a", "Z", "9", "李"), minLength: n, maxLength: n }));

/** A value the schema refuses (not only by type: also range, length, pattern, enum and missing fields). */
export function invalidValue(schema: Schema): fc.Arbitrary<unknown> {
  checkKeywords(schema);
  const options: fc.Arbitrary<unknown>[] = [wrongType(schema)];
  if (schema.enum) options.push(fc.string({ maxLength: 20 }).filter((s) => !schema.enum.includes(s)));
  if (schema.type === "string") {
    if (schema.minLength) options.push(fc.constant(""));
    if (schema.maxLength !== undefined) options.push(tooLong(schema.maxLength));
    if (schema.pattern) options.push(fc.string({ maxLength: 40 }).filter((s) => !new RegExp(schema.pattern).test(s)));
  }
  if (schema.type === "integer") {
    options.push(fc.constantFrom(0.5, 1.25, -0.1, 1e21, Number.MAX_SAFE_INTEGER + 2));
    if (schema.minimum !== undefined) options.push(fc.integer({ min: schema.minimum - 1000, max: schema.minimum - 1 }));
    if (schema.maximum !== undefined) options.push(fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1000 }));
  }
  if (schema.type === "array" && schema.minItems) options.push(fc.constant([]));
  if (schema.oneOf) options.push(invalidObject(schema));
  // An object with no named fields (metadata's free pairs) has no field to break: its wrong types stand.
  if (schema.type === "object" && schema.properties && Object.keys(schema.properties).length > 0) {
    options.push(invalidObject(schema));
  }
  return fc.oneof(...options);
}

/** A copy of a valid object with one field made invalid or one required field removed. */
export function invalidObject(schema: Schema, hints: Hints = {}): fc.Arbitrary<unknown> {
  // One branch of a discriminated union, broken: its tag still names that branch (or is broken itself), so no other branch accepts it.
  if (schema.oneOf) return fc.constantFrom(...(schema.oneOf as Schema[])).chain((branch) => invalidObject(branch, hints));
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const required = (schema.required ?? []) as string[];
  const breakField = fc
    .constantFrom(...properties)
    .chain(([key, s]) => fc.tuple(validValue(schema, hints), fc.constant(key), invalidValue(s)))
    .map(([valid, key, bad]) => ({ ...(valid as object), [key]: bad }));
  const options: fc.Arbitrary<unknown>[] = [breakField, wrongType(schema)];
  if (required.length) {
    options.push(
      fc.tuple(validValue(schema, hints), fc.constantFrom(...required)).map(([valid, key]) => {
        const copy = { ...(valid as Record<string, unknown>) };
        delete copy[key];
        return copy;
      }),
    );
  }
  return fc.oneof(...options);
}

/** Adds unknown fields (prototype-pollution keys included) to an object; other values pass through. */
export const withJunkKeys = (value: unknown) =>
  fc
    .dictionary(
      fc.oneof(
        fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "isAdmin", "userType"),
        fc.string({ maxLength: 10 }),
      ),
      junkValue,
      { maxKeys: 3 },
    )
    .map((extra) => {
      if (typeOf(value) !== "object") return value;
      const out = ownKeys(value as Record<string, unknown>);
      for (const [key, v] of Object.entries(extra)) {
        if (key in (value as object)) continue; // only unknown fields: a known one would change the case's meaning
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    });

/** Strings for a path segment: wrong shapes, unicode, traversal, encodings, huge. */
export const junkPathSegment = fc.oneof(
  unicodeText(30).filter((s) => s.length > 0),
  fc.constantFrom(
    "..",
    ".",
    "%2e%2e",
    "%00",
    "null",
    "undefined",
    "0",
    "-1",
    "ses_",
    "key_",
    "ses_' OR 1=1 --",
    "key_%27%20OR%201%3D1",
    "__proto__",
    "constructor",
  ),
  fc.stringMatching(/^(ses|key|usr|rcpt|msg)_[A-Za-z0-9_-]{0,40}$/),
  fc.integer({ min: 200, max: 4000 }).map((n) => "x".repeat(n)),
);
