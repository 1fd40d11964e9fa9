// src/lib/lazy-zod.ts: zod/mini's schemas, built on first use, answer exactly as zod/mini's own, built
// eagerly, do (with zod's English messages); and neither a schema nor a check is built until something uses
// it (the start-up saving, docs/performance.md). Runs in the workers project, where the Worker's setting
// (OPENAPI_METADATA false) turns the deferral on.
import { describe, expect, it } from "vitest";
import * as mini from "zod/mini";
import * as z from "../../src/lib/lazy-zod";

/** The same declaration through both modules: the lazy one and zod/mini itself. */
function both<T>(declare: (api: typeof mini) => T): { lazy: T; eager: T } {
  return { lazy: declare(z as unknown as typeof mini), eager: declare(mini) };
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

/** Both schemas give the same answer to every input: the data, or the issues with their messages. */
function expectSameAnswers(lazy: mini.ZodMiniType, eager: mini.ZodMiniType, inputs: unknown[]) {
  for (const input of inputs) {
    const a = lazy.safeParse(input);
    const b = eager.safeParse(input);
    expect(a.success).toBe(b.success);
    if (a.success && b.success) expect(a.data).toEqual(b.data);
    else expect(a.error?.issues).toEqual(b.error?.issues);
  }
}

describe("lazy zod", () => {
  it("is on in the Worker's setting", () => {
    expect(OPENAPI_METADATA).toBe(false);
  });

  it("builds nothing, schema or check, until the schema is used, then builds it once", () => {
    const { watched, reads } = watchedValues(["a", "b"]);
    let checked = 0;
    const schema = z.object({ kind: z.optional(z.enum(watched)).check(z.describe("kind")) });
    const wider = z.extend(schema, {
      n: z.int().check(
        z.gte(1),
        z.refine(() => ++checked > 0),
      ),
    });
    expect(reads.count).toBe(0);
    expect(checked).toBe(0);

    expect(wider.safeParse({ kind: "a", n: 1 }).success).toBe(true);
    const afterFirstUse = reads.count;
    expect(afterFirstUse).toBeGreaterThan(0);
    expect(checked).toBe(1);
    expect(schema.safeParse({ kind: "b" }).success).toBe(true);
    expect(wider.safeParse({ kind: "c", n: 1 }).success).toBe(false);
    // Built once: the enum (shared by both objects) is not built again.
    expect(reads.count).toBe(afterFirstUse);
  });

  it("answers every input as eager zod/mini does: values, defaults, refinements, errors", () => {
    const { lazy, eager } = both((api) => {
      const Kind = api.enum(["merchant", "person"]);
      const Range = api.object({ from: api.iso.datetime(), to: api.optional(api.iso.datetime()) });
      const Item = api.discriminatedUnion("type", [
        api.object({ type: api.literal("a"), value: api.string().check(api.trim(), api.toLowerCase(), api.regex(/^[a-z]+$/)) }),
        api.object({ type: api.literal("b"), value: api.int().check(api.gte(0), api.lte(9)) }),
      ]);
      return api.strictObject({
        kind: api._default(Kind, "merchant"),
        email: api.nullable(api.email().check(api.maxLength(40))),
        items: api.array(Item).check(api.maxLength(3)),
        tags: api.optional(api.record(api.string(), api.boolean())),
        limit: api._default(api.coerce.number().check(api.int(), api.gte(1), api.lte(100)), 10),
        range: Range.check(api.refine((r) => !r.to || r.to >= r.from, { message: "to before from", path: ["to"] })),
        code: api.nullish(api.string().check(api.length(2), api.toUpperCase())),
        note: api.pipe(api.string(), api.string().check(api.minLength(1))),
        born: api.iso.date(),
        extra: api.unknown(),
        open: api.catchall(api.looseObject({ a: api.string() }), api.string()),
        pairs: api.catchall(
          api.object({}),
          api.string().check(
            api.superRefine((value, ctx) => {
              if (value === "x") ctx.addIssue({ code: "custom", message: "not x" });
            }),
          ),
        ),
        none: api.optional(api.never()),
        number: api.optional(api.number()),
        choice: api.optional(api.union([api.literal(1), api.url()])),
      });
    });
    expectSameAnswers(lazy, eager, [
      {
        email: null,
        items: [{ type: "a", value: " AbC " }],
        limit: "5",
        range: { from: "2026-01-01T00:00:00Z" },
        note: "four",
        born: "2000-02-29",
        open: { a: "a", b: "b" },
        pairs: { k: "v" },
        code: "ab",
        choice: "https://example.com",
      },
      {
        kind: "person",
        email: "x@example.com",
        items: [],
        tags: { a: true },
        range: { from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" },
        note: "",
        born: "2000-02-30",
        open: { a: 1, b: 2 },
        pairs: { k: "x" },
        none: 1,
        number: "1",
        code: "abc",
        choice: 2,
      },
      { email: "not an email", items: [{ type: "b", value: 12 }, { type: "c" }], limit: "0", range: {}, note: 3, born: "x", unexpected: 1 },
      { email: null, items: [1, 2, 3, 4], range: { from: "2026-01-01T00:00:00Z" }, note: "n", born: "2001-01-01" },
      null,
      "text",
    ]);
  });

  it("says what is wrong in zod's English messages", () => {
    const schema = z.object({ name: z.string().check(z.minLength(1), z.maxLength(3)), n: z.int() });
    expect(schema.safeParse({ name: "long", n: "1" }).error?.issues.map((issue) => issue.message)).toEqual([
      "Too big: expected string to have <=3 characters",
      "Invalid input: expected number, received string",
    ]);
  });

  it("is the real schema to anything that looks at it: instanceof, shape, metadata, JSON Schema", () => {
    const { lazy, eager } = both((api) =>
      api.object({ id: api.string().check(api.describe("The id")), n: api.optional(api.int()) }).check(api.describe("A thing")),
    );
    expect(z.built(lazy)).toBeInstanceOf(mini.ZodMiniObject);
    expect(lazy).toBeInstanceOf(mini.ZodMiniObject);
    expect(Object.keys(lazy.shape)).toEqual(["id", "n"]);
    expect(mini.globalRegistry.get(z.built(lazy))?.description).toBe("A thing");
    expect(mini.globalRegistry.get(lazy.shape.id)?.description).toBe("The id");
    expect(mini.toJSONSchema(z.built(lazy))).toEqual(mini.toJSONSchema(eager));
    expect("_zod" in lazy).toBe(true);
  });

  it("records `.check` and its alias `.with` on a stand-in, and forwards every other method", () => {
    const base = z.string();
    const checked = base.check((ctx) => {
      if (ctx.value === "bad") ctx.issues.push({ code: "custom", message: "bad", input: ctx.value });
    });
    const withed = base.with(z.maxLength(2));
    expect(checked.safeParse("bad").error?.issues[0]?.message).toBe("bad");
    expect(base.safeParse("bad").success).toBe(true);
    expect(withed.safeParse("bad").success).toBe(false);
    expect(base.brand<"B">().parse("ok")).toBe("ok");
  });

  it("hands a real schema a check made on first use as the check itself", () => {
    const real = mini.string().check(z.trim(), z.maxLength(2), z.describe("short"));
    expect(real.safeParse(" ab ")).toEqual({ success: true, data: "ab" });
    expect(real.safeParse("abc").error?.issues).toEqual(mini.string().check(mini.maxLength(2)).safeParse("abc").error?.issues);
    expect(mini.globalRegistry.get(real)?.description).toBe("short");
    expect(z.maxLength(2)).toBeInstanceOf(mini.core.$ZodCheckMaxLength);
  });

  it("parses asynchronously as zod does (the validators' path)", async () => {
    const { lazy, eager } = both((api) => api.object({ n: api.coerce.number().check(api.int(), api.gte(1)) }));
    for (const input of [{ n: "3" }, { n: "-1" }, {}]) {
      const a = await lazy.safeParseAsync(input);
      const b = await eager.safeParseAsync(input);
      expect(a.success).toBe(b.success);
      expect(a.success ? a.data : a.error.issues).toEqual(b.success ? b.data : b.error.issues);
    }
  });
});
