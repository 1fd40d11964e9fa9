// zod's builder methods (`.max(…)`, `.optional()`, `.refine(…)`, …) as zod/mini's functions, for the schemas
// src/lib/lazy-zod.ts builds in the Worker. zod/mini's schemas are zod's core schemas (the same parsing, the
// same checks, the same issues) without the methods. Classic zod gives every schema every method, so a
// bundle that builds one classic schema holds all of zod: without it the Worker is 9.5 KB smaller gzipped
// (149.6 to 140.1 KB). Each step is what classic zod's method does (node_modules/zod/v4/classic/schemas.js),
// on a zod/mini schema; test/lib/lazy-zod.test.ts holds each against classic zod's answers.
import * as mini from "zod/mini";
import en from "zod/v4/locales/en.js";

type Schema = mini.ZodMiniType;
// biome-ignore lint/suspicious/noExplicitAny: each step takes its own method's arguments; a stand-in forwards them as they came
type Step = (schema: Schema, ...args: any[]) => Schema;

let localeSet = false;
/** Classic zod sets its English messages when imported; zod/mini leaves that to its user. */
export function useEnglishMessages(): void {
  if (localeSet) return;
  mini.config(en());
  localeSet = true;
}

const typeOf = (schema: Schema) => schema._zod.def.type;
/** `.min`/`.max` bound a length on strings and arrays, a size on sets and files, a value on numbers and dates. */
const sized = (schema: Schema) => ["string", "array"].includes(typeOf(schema));
const counted = (schema: Schema) => ["set", "file"].includes(typeOf(schema));

/**
 * Classic zod's `.check(…)`: zod/mini's copies the definition by spreading it, which reads a `.default()`'s
 * value once (a default made by a function would then be made once for every parse); classic merges the
 * definition's property descriptors and keeps the getter.
 */
function withChecks(schema: Schema, ...checks: unknown[]): Schema {
  const def = schema._zod.def;
  const custom = (check: unknown) => (typeof check === "function" ? { _zod: { check, def: { check: "custom" }, onattach: [] } } : check);
  // zod's util.mergeDefs, written out: `mini.util` would bring all of zod's util namespace into the Worker.
  const merged = Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(def),
      ...Object.getOwnPropertyDescriptors({ checks: [...(def.checks ?? []), ...checks.map(custom)] }),
    },
  );
  return schema.clone(merged as never, { parent: true });
}

const check =
  // biome-ignore lint/suspicious/noExplicitAny: each check factory takes its own arguments, forwarded from the step
    (make: (...args: any[]) => unknown): Step =>
    (schema, ...args) =>
      withChecks(schema, make(...args));

/** Classic zod's transform, whose context can add an issue (`ctx.addIssue(…)`), which zod/mini's cannot. */
const transformWithIssues = (transform: (value: unknown, ctx: unknown) => unknown) =>
  mini.transform((value, payload) => {
    const context = payload as typeof payload & { addIssue(issue: string | Record<string, unknown>): void };
    context.addIssue = (issue) => {
      if (typeof issue === "string") payload.issues.push({ message: issue, code: "custom", input: payload.value } as never);
      else {
        // As classic zod does, for zod 3's `fatal`.
        if (issue.fatal) issue.continue = false;
        payload.issues.push({ ...issue, code: issue.code ?? "custom", input: issue.input ?? payload.value } as never);
      }
    };
    return transform(value, context);
  });
const withCatchall = (schema: Schema, catchall: Schema | undefined) => schema.clone({ ...schema._zod.def, catchall } as never);

/** Each builder method of classic zod, by name, as a step on a zod/mini schema. */
export const STEPS: Readonly<Record<string, Step>> = {
  optional: (schema) => mini.optional(schema),
  nullable: (schema) => mini.nullable(schema),
  nullish: (schema) => mini.optional(mini.nullable(schema)),
  describe: (schema, description: string) => {
    const described = schema.clone();
    mini.globalRegistry.add(described, { description });
    return described;
  },
  meta: (schema, metadata: Record<string, unknown>) => {
    const tagged = schema.clone();
    mini.globalRegistry.add(tagged, metadata);
    return tagged;
  },
  min: (schema, bound, params) =>
    withChecks(
      schema,
      sized(schema) ? mini.minLength(bound, params) : counted(schema) ? mini.minSize(bound, params) : mini.gte(bound, params),
    ),
  max: (schema, bound, params) =>
    withChecks(
      schema,
      sized(schema) ? mini.maxLength(bound, params) : counted(schema) ? mini.maxSize(bound, params) : mini.lte(bound, params),
    ),
  length: check(mini.length),
  nonempty: (schema, params) => withChecks(schema, mini.minLength(1, params)),
  regex: check(mini.regex),
  refine: check(mini.refine),
  superRefine: check(mini.superRefine),
  check: withChecks,
  with: withChecks,
  overwrite: check(mini.overwrite),
  trim: check(mini.trim),
  toLowerCase: check(mini.toLowerCase),
  toUpperCase: check(mini.toUpperCase),
  normalize: check(mini.normalize),
  lowercase: check(mini.lowercase),
  uppercase: check(mini.uppercase),
  startsWith: check(mini.startsWith),
  endsWith: check(mini.endsWith),
  includes: check(mini.includes),
  // A number format is a check as well as a schema: classic's `.int()` is `.check(int())`.
  int: check(mini.int),
  gt: check(mini.gt),
  gte: check(mini.gte),
  lt: check(mini.lt),
  lte: check(mini.lte),
  positive: check(mini.positive),
  negative: check(mini.negative),
  nonnegative: check(mini.nonnegative),
  nonpositive: check(mini.nonpositive),
  multipleOf: check(mini.multipleOf),
  step: check(mini.multipleOf),
  transform: (schema, transform) => mini.pipe(schema, transformWithIssues(transform)),
  pipe: (schema, target) => mini.pipe(schema, target),
  default: (schema, value) => mini._default(schema, value),
  prefault: (schema, value) => mini.prefault(schema, value),
  catch: (schema, value) => mini.catch(schema, value),
  extend: (schema, shape) => mini.extend(schema as never, shape),
  safeExtend: (schema, shape) => mini.safeExtend(schema as never, shape),
  pick: (schema, mask) => mini.pick(schema as never, mask),
  omit: (schema, mask) => mini.omit(schema as never, mask),
  partial: (schema, mask) => mini.partial(schema as never, mask),
  required: (schema, mask) => mini.required(schema as never, mask),
  strict: (schema) => withCatchall(schema, mini.never()),
  strip: (schema) => withCatchall(schema, undefined),
  passthrough: (schema) => withCatchall(schema, mini.unknown()),
  loose: (schema) => withCatchall(schema, mini.unknown()),
  catchall: (schema, catchall) => withCatchall(schema, catchall),
  array: (schema) => mini.array(schema),
  or: (schema, other) => mini.union([schema, other]),
  and: (schema, other) => mini.intersection(schema, other),
  brand: (schema) => schema,
  readonly: (schema) => mini.readonly(schema),
};
