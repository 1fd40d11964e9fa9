// Generated bad input on every route of the OpenAPI document: never a 5xx, always the error envelope with
// a status and code the document names for the route, and not one row changed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { hintsFor } from "./hints";
import {
  caseCounts,
  conformanceProblem,
  countCase,
  expectEveryRouteExercised,
  loadDocument,
  printCaseCounts,
  type Operation,
} from "./openapi-walk";
import { type Case, type Credentials, send, snapshot } from "./requests";
import { invalidObject, invalidValue, junkPathSegment, junkValue, validValue, withJunkKeys } from "./schema-arbitraries";

const SEED = 0x10_10;
const RUNS = 80;

const { operations } = await loadDocument();

type Fixtures = Credentials & { sessionId: string; keyId: string };
let fixtures: Fixtures;

beforeAll(async () => {
  const account = await seedAccount({ userType: "BUSINESS" });
  const merchant = await seedMerchant();
  const session = await openSession(merchant.apiKey);
  fixtures = { token: account.token, apiKey: merchant.apiKey, sessionId: session.session_id, keyId: merchant.keyId };
});

afterAll(() => printCaseCounts("invalid-input cases per route"));

const MALFORMED_JSON = ['{"a":', "{", "[1,", "nul", "{'a':1}", '{"a":1}}', "\u0000", '{"a":1,}', "NaN", '"\\ud800'];

/** Bodies that are not acceptable JSON at all: malformed, wrong media type, too large, not UTF-8. */
const rawBodyJunk = fc.oneof(
  fc.constantFrom(...MALFORMED_JSON).map((raw) => ({ raw, contentType: "application/json" })),
  fc
    .tuple(
      fc.json(),
      fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "json", ""),
    )
    .map(([raw, contentType]) => ({ raw, contentType })),
  fc
    .integer({ min: 64 * 1024 + 1, max: 80 * 1024 })
    .map((n) => ({ raw: JSON.stringify({ pad: "x".repeat(n) }), contentType: "application/json" })),
  fc
    .constantFrom(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), new Uint8Array([0xc3, 0x28]))
    .map((raw) => ({ raw, contentType: "application/json" })),
);

const stringify = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function pathParams(op: Operation): Record<string, string> {
  return Object.fromEntries(
    op.parameters
      .filter((p) => p.in === "path")
      .map((p) => [p.name, p.name === "id" && op.path.startsWith("/api/keys") ? fixtures.keyId : fixtures.sessionId]),
  );
}

/** A query the schema accepts, as strings. */
function validQuery(op: Operation) {
  const hints = hintsFor(op.key);
  const shape = Object.fromEntries(
    op.parameters.filter((p) => p.in === "query").map((p) => [p.name, validValue(p.schema, hints, p.name).map(stringify)]),
  );
  const required = op.parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name);
  return fc.record(shape, { requiredKeys: required });
}

/** Every kind of bad input the operation can be sent, labelled. A label starting with "junk" may be valid. */
function badCases(op: Operation): fc.Arbitrary<[string, Case]> {
  const hints = hintsFor(op.key);
  const kinds: fc.Arbitrary<[string, Case]>[] = [];
  const queryParameters = op.parameters.filter((p) => p.in === "query");
  const baseQuery: fc.Arbitrary<Record<string, string | string[]>> = queryParameters.length ? validQuery(op) : fc.constant({});
  const baseBody = op.body ? validValue(op.body, hints).map((json) => ({ json })) : fc.constant(undefined);

  if (op.body) {
    kinds.push(
      fc
        .tuple(invalidObject(op.body, hints).chain(withJunkKeys), baseQuery)
        .map(([json, query]) => ["body", { params: pathParams(op), query, body: { json } }]),
    );
  }
  if (op.body && op.bodyRequired) {
    // The body is required: none at all, or an empty one that claims to be JSON.
    kinds.push(
      fc
        .tuple(fc.constantFrom<Case["body"]>(undefined, { raw: "", contentType: "application/json" }), baseQuery)
        .map(([body, query]) => ["no-body", { params: pathParams(op), query, body }]),
    );
  }
  if (op.method !== "GET") {
    kinds.push(fc.tuple(rawBodyJunk, baseQuery).map(([body, query]) => ["raw-body", { params: pathParams(op), query, body }]));
  }
  if (queryParameters.length) {
    const broken = fc
      .tuple(baseQuery, fc.constantFrom(...queryParameters))
      .chain(([query, parameter]) =>
        fc.oneof<fc.Arbitrary<Record<string, string | string[]>>[]>(
          invalidValue(parameter.schema)
            .filter((v) => v !== undefined && !(parameter.schema.type === "integer" && typeof v === "string" && /^\s*-?\d+\s*$/.test(v)))
            .map((bad) => ({ ...query, [parameter.name]: stringify(bad) })),
          // A repeated parameter arrives as an array where one value belongs.
          validValue(parameter.schema, hints, parameter.name).map((v) => ({ ...query, [parameter.name]: [stringify(v), stringify(v)] })),
          ...(parameter.required ? [fc.constant(Object.fromEntries(Object.entries(query).filter(([k]) => k !== parameter.name)))] : []),
        ),
      )
      // A string query value always has the string type, so an invalid value must break a rule, not just the type.
      .filter((query) => queryParameters.some((p) => !queryValueValid(p.schema, query[p.name], p.required)));
    kinds.push(
      fc
        .tuple(broken, baseBody)
        .map(([query, body]) => ["query", { params: pathParams(op), query: query as Record<string, string | string[]>, body }]),
    );
  }
  if (op.parameters.some((p) => p.in === "path")) {
    kinds.push(
      fc
        .tuple(junkPathSegment, baseQuery, baseBody)
        .map(([segment, query, body]) => [
          "path",
          { params: Object.fromEntries(op.parameters.filter((p) => p.in === "path").map((p) => [p.name, segment])), query, body },
        ]),
    );
  }
  if (op.method === "GET") {
    // Unknown query parameters are ignored (docs/api-contract.md §Conventions): these cases may well succeed.
    kinds.push(
      fc
        .tuple(
          fc.dictionary(fc.constantFrom("__proto__", "constructor", "x", "callback", "limit[]", "a[b]", "😀"), junkValue.map(stringify), {
            maxKeys: 3,
          }),
          baseQuery,
        )
        .map(([extra, query]) => ["junk-query", { params: pathParams(op), query: { ...extra, ...query } }]),
    );
  }
  return fc.oneof(...kinds);
}

/** Whether a query string value passes its parameter's schema, as the server reads it. */
function queryValueValid(schema: Record<string, any>, value: string | string[] | undefined, required: boolean): boolean {
  if (value === undefined) return !required;
  if (Array.isArray(value)) return false;
  if (schema.enum) return schema.enum.includes(value);
  if (schema.type === "integer") {
    const n = Number(value);
    return value.trim() !== "" && Number.isInteger(n) && n >= (schema.minimum ?? -Infinity) && n <= (schema.maximum ?? Infinity);
  }
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) return false;
  return true;
}

describe("generated bad input on every documented route", () => {
  for (const op of operations) {
    it(`${op.key}: never a 5xx, the documented error envelope, nothing written`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(badCases(op), async ([kind, c]) => {
          countCase(op.key);
          const before = await snapshot();
          const res = await send(op, c, fixtures);
          const problem = await conformanceProblem(op, res);
          if (problem) throw new Error(`${kind}: ${problem}`);
          if (res.status >= 500) throw new Error(`${kind}: ${res.status} ${res.text}`);
          if (!kind.startsWith("junk") && res.status < 400)
            throw new Error(`${kind}: accepted with ${res.status}: ${res.text.slice(0, 300)}`);
          if (res.status >= 400) {
            expect(res.body).toMatchObject({
              success: false,
              error: expect.any(String),
              message: expect.any(String),
              errors: expect.any(Array),
            });
            if ((await snapshot()) !== before) throw new Error(`${kind}: ${res.status} ${res.body.error} but the database changed`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      expect(caseCounts.get(op.key)).toBeGreaterThanOrEqual(RUNS);
    });
  }

  it("exercised every route the app serves, each with the planned number of cases", () => {
    expectEveryRouteExercised(operations, RUNS);
  });
});
