// src/lib/lazy-zod.ts: schemas built on first use answer exactly as zod's own, built eagerly, do; and a
// schema is not built until something uses it (the start-up saving, issue 35). Runs in the workers
// project, where the Worker's setting (OPENAPI_METADATA false) turns the deferral on.
import { describe, expect, it } from "vitest";
import * as zod from "zod";
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
        api.object({ type: api.literal("a"), value: api.string().trim().toLowerCase().regex(/^[a-z]+$/) }),
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
      { email: null, items: [{ type: "a", value: " AbC " }], limit: "5", range: { from: "2026-01-01T00:00:00Z" }, note: "four", born: "2000-02-29" },
      { kind: "person", email: "x@example.com", items: [], tags: { a: true }, range: { from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" }, note: "", born: "2000-02-30" },
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
    expect(lazy).toBeInstanceOf(zod.ZodObject);
    expect(Object.keys(lazy.shape)).toEqual(["id", "n"]);
    expect(lazy.description).toBe("A thing");
    expect(lazy.shape.id.description).toBe("The id");
    expect(zod.toJSONSchema(z.built(lazy))).toEqual(zod.toJSONSchema(eager));
    expect("_zod" in lazy).toBe(true);
    // meta(…) builds a schema; meta() reads what was given.
    const tagged = z.string().meta({ title: "Tagged" });
    expect(tagged.meta()).toEqual({ title: "Tagged" });
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
