// src/lib/lazy-zod.ts: schemas built on first use, as zod/mini's (src/lib/zod-mini-steps.ts), answer exactly
// as classic zod's own, built eagerly, do; and a schema is not built until something uses it (the start-up
// saving, docs/performance.md). Runs in the workers project, where the Worker's setting (OPENAPI_METADATA false) turns
// the deferral on.
import { describe, expect, it } from "vitest";
import * as zod from "zod";
import * as mini from "zod/mini";
import * as z from "../../src/lib/lazy-zod";

/** The same declaration through both modules: the lazy one and zod itself. */
function both<T>(declare: (api: typeof zod) => T): { lazy: T; eager: T } {
  return { lazy: declare(z as unknown as typeof zod), eager: declare(zod) };
}

/** An array whose reads are counted: zod reads an enum's values when it builds the schema. */
function watchedValues(values: string[]) {
  const reads = { count: 0 };
  const watched = new Proxy(values, {
    get(target, key, receiver) {
      reads.count++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { watched, reads };
}

describe("lazy zod", () => {
  it("is on in the Worker's setting", () => {
    expect(OPENAPI_METADATA).toBe(false);
  });

  it("builds nothing until the schema is used, then builds it once", () => {
    const { watched, reads } = watchedValues(["a", "b"]);
    const schema = z.object({ kind: z.enum(watched).optional().describe("kind") });
    const wider = schema.extend({ n: z.int().min(1) });
    expect(reads.count).toBe(0);

    expect(wider.safeParse({ kind: "a", n: 1 }).success).toBe(true);
    const afterFirstUse = reads.count;
    expect(afterFirstUse).toBeGreaterThan(0);
    expect(schema.safeParse({ kind: "b" }).success).toBe(true);
    expect(wider.safeParse({ kind: "c", n: 1 }).success).toBe(false);
    // Built once: the enum (shared by both objects) is not built again.
    expect(reads.count).toBe(afterFirstUse);
  });

  it("answers every input as eager zod does: values, defaults, transforms, refinements, errors", () => {
    const { lazy, eager } = both((api) => {
      const Kind = api.enum(["merchant", "person"]);
      const Range = api.object({ from: api.iso.datetime(), to: api.iso.datetime().optional() });
      const Item = api.discriminatedUnion("type", [
        api.object({
          type: api.literal("a"),
          value: api
            .string()
            .trim()
            .toLowerCase()
            .regex(/^[a-z]+$/),
        }),
        api.object({ type: api.literal("b"), value: api.int().gte(0).lte(9) }),
      ]);
      return api
        .object({
          kind: Kind.default("merchant"),
          email: api.email().max(40).nullable(),
          items: api.array(Item).max(3),
          tags: api.record(api.string(), api.boolean()).optional(),
          limit: api.coerce.number().int().min(1).max(100).default(10),
          range: Range.refine((r) => !r.to || r.to >= r.from, { message: "to before from", path: ["to"] }),
          note: api.string().transform((s) => s.length),
          born: api.iso.date(),
          extra: api.unknown(),
        })
        .strict();
    });
    const inputs: unknown[] = [
      {
        email: null,
        items: [{ type: "a", value: " AbC " }],
        limit: "5",
        range: { from: "2026-01-01T00:00:00Z" },
        note: "four",
        born: "2000-02-29",
      },
      {
        kind: "person",
        email: "x@example.com",
        items: [],
        tags: { a: true },
        range: { from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" },
        note: "",
        born: "2000-02-30",
      },
      { email: "not an email", items: [{ type: "b", value: 12 }, { type: "c" }], limit: "0", range: {}, note: 3, born: "x", unexpected: 1 },
      { email: null, items: [1, 2, 3, 4], range: { from: "2026-01-01T00:00:00Z" }, note: "n", born: "2001-01-01" },
      null,
      "text",
    ];
    for (const input of inputs) {
      const a = lazy.safeParse(input);
      const b = eager.safeParse(input);
      expect(a.success).toBe(b.success);
      if (a.success && b.success) expect(a.data).toEqual(b.data);
      else expect(a.error?.issues).toEqual(b.error?.issues);
    }
  });

  it("is the real schema to anything that looks at it: instanceof, shape, metadata, JSON Schema", () => {
    const { lazy, eager } = both((api) => api.object({ id: api.string().describe("The id"), n: api.int().optional() }).describe("A thing"));
    // zod/mini's object: zod's core object, as classic zod's is.
    expect(z.built(lazy)).toBeInstanceOf(mini.ZodMiniObject);
    expect(lazy).toBeInstanceOf(zod.core.$ZodObject);
    expect(Object.keys(lazy.shape)).toEqual(["id", "n"]);
    expect(lazy.description).toBe("A thing");
    // Where classic zod keeps it: the global registry (zod/mini's schemas have no `.description` getter).
    expect(zod.globalRegistry.get(lazy.shape.id)?.description).toBe("The id");
    expect(zod.toJSONSchema(z.built(lazy))).toEqual(zod.toJSONSchema(eager));
    expect("_zod" in lazy).toBe(true);
    // meta(…) builds a schema; meta() reads what was given.
    const tagged = z.string().meta({ title: "Tagged" });
    expect(tagged.meta()).toEqual({ title: "Tagged" });
  });

  it("replays every builder method as classic zod's method does", () => {
    const { lazy, eager } = both((api) => {
      const Base = api.object({
        a: api.string().nonempty("empty").startsWith("a").endsWith("z").includes("m"),
        b: api.number().positive().multipleOf(2).lt(100),
      });
      return api.object({
        picked: Base.pick({ a: true }).strict(),
        omitted: Base.omit({ a: true }).loose(),
        partial: Base.partial().catchall(api.boolean()),
        required: Base.partial().required({ b: true }).strip(),
        safe: Base.safeExtend({ c: api.literal(1) }).passthrough(),
        either: api.string().length(3).or(api.int().nonnegative()),
        both: api.object({ x: api.int() }).and(api.object({ y: api.int().nonpositive().gte(-5) })),
        maybe: api.string().uppercase().nullish(),
        lower: api.string().lowercase("lower").max(4),
        trimmed: api
          .string()
          .trim()
          .toUpperCase()
          .normalize()
          .overwrite((v) => `${v}!`),
        numbers: api.array(api.number().negative().step(0.5).lte(-1)).min(1).max(2),
        fallback: api.int().catch(7),
        prefaulted: api.string().min(2).prefault("z"),
        piped: api
          .string()
          .transform((v) => Number(v))
          .pipe(api.number().gt(0)),
        checked: api.string().check((ctx) => {
          if (ctx.value === "bad") ctx.issues.push({ code: "custom", message: "bad", input: ctx.value });
        }),
        refined: api.int().superRefine((n, ctx) => {
          if (n % 3 === 0) ctx.addIssue({ code: "custom", message: "three" });
        }),
        described: api.string().describe("described").meta({ title: "t" }).brand<"B">().readonly(),
        list: api.string().array().nonempty(),
      });
    });
    const good = {
      picked: { a: "amz" },
      omitted: { b: 4, other: 1 },
      partial: { extra: true },
      required: { b: 2, dropped: 1 },
      safe: { a: "amz", b: 2, c: 1, more: 1 },
      either: "abc",
      both: { x: 1, y: -2 },
      maybe: null,
      lower: "ab",
      trimmed: " mixed ",
      numbers: [-1.5],
      fallback: "no",
      piped: "5",
      checked: "ok",
      prefaulted: "abc",
      refined: 4,
      described: "d",
      list: ["x"],
    };
    const bad = {
      picked: { a: "", extra: 1 },
      omitted: { b: 3 },
      partial: { extra: "x", b: -2 },
      required: {},
      safe: { a: "bz", b: 101, c: 2 },
      either: "abcd",
      both: { x: 1, y: -6 },
      maybe: "lower",
      lower: "ABCDE",
      trimmed: 3,
      numbers: [],
      fallback: "no",
      piped: "-1",
      checked: "bad",
      refined: 9,
      described: 1,
      list: [],
    };
    for (const input of [good, bad, { ...good, numbers: [-0.3, -1, -2], either: -1, maybe: "UP" }]) {
      const a = lazy.safeParse(input);
      const b = eager.safeParse(input);
      expect(a.success).toBe(b.success);
      if (a.success && b.success) expect(a.data).toEqual(b.data);
      else expect(a.error?.issues).toEqual(b.error?.issues);
    }
    expect(lazy.safeParse(good).success).toBe(true);
    expect(lazy.safeParse(bad).error?.issues.length).toBeGreaterThan(15);
    expect(zod.globalRegistry.get(lazy.shape.described)).toEqual(zod.globalRegistry.get(eager.shape.described));
  });

  it("keeps a default made by a function fresh through later checks, and a transform's issues", () => {
    let made = 0;
    const { lazy, eager } = both((api) =>
      api.object({
        id: api
          .string()
          .default(() => `id-${++made}`)
          .refine((value) => value.length > 0),
        n: api.string().transform((value, ctx) => {
          if (value === "x") ctx.addIssue({ code: "custom", message: "not x" });
          if (value === "y") ctx.addIssue("not y");
          return value.length;
        }),
      }),
    );
    const first = lazy.safeParse({ n: "ab" });
    const second = lazy.safeParse({ n: "ab" });
    expect(first.data?.id).not.toBe(second.data?.id);
    expect(eager.safeParse({ n: "ab" }).data?.id).not.toBe(second.data?.id);
    for (const n of ["x", "y", "ok"]) {
      const a = lazy.safeParse({ id: "i", n });
      const b = eager.safeParse({ id: "i", n });
      expect(a.success ? a.data : a.error.issues).toEqual(b.success ? b.data : b.error.issues);
    }
    expect(lazy.safeParse({ id: "i", n: "x" }).error?.issues[0]?.message).toBe("not x");
  });

  it("parses asynchronously as zod does (the validators' path)", async () => {
    const { lazy, eager } = both((api) => api.object({ n: api.coerce.number().int().positive() }));
    for (const input of [{ n: "3" }, { n: "-1" }, {}]) {
      const a = await lazy.safeParseAsync(input);
      const b = await eager.safeParseAsync(input);
      expect(a.success).toBe(b.success);
      expect(a.success ? a.data : a.error.issues).toEqual(b.success ? b.data : b.error.issues);
    }
  });
});
