// docs/integrating.md: verification_url, return_url, reference, metadata, locale, livemode and holder_binding on the
// open request, the poll, the end user's view, the callbacks and the session log.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { eventState } from "../helpers/callbacks";
import { parseCsv } from "../helpers/csv-parse";
import { call, expectError } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, CALLBACK_URL, complete, poll } from "../helpers/sessions";
import { dbOfAccount, dbOfSession } from "../helpers/shards";

afterEach(() => {
  vi.restoreAllMocks();
});

const open = (apiKey: string, body: Record<string, unknown>) =>
  call("POST", "/api/age-verification/session", { apiKey, body: { age_required: 18, callback_url: CALLBACK_URL, ...body } });

const sessionRows = async (accountId: string) =>
  (await dbOfAccount(accountId)).select().from(verificationSessions).where(eq(verificationSessions.accountId, accountId));

describe("open request additions", () => {
  it("returns verification_url from APP_URL and livemode, and carries reference and metadata to the poll and the log, never to the end user", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const metadata = { cart: "c-991", channel: "web" };
    const res = await open(merchant.apiKey, {
      return_url: "https://shop.example.com/after-age",
      reference: "order-4711",
      metadata,
      locale: "fr",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const opened = res.body.data;
    expect(opened.livemode).toBe(true);
    expect(opened.verification_url).toBe(
      `${env.APP_URL}/verify?session_id=${encodeURIComponent(opened.session_id)}&nonce=${encodeURIComponent(opened.nonce)}`,
    );
    const polled = (await poll(merchant.apiKey, opened.session_id)).body.data;
    expect(polled).toMatchObject({ reference: "order-4711", metadata, livemode: true, holder_binding: null, receipt: null });
    const [row] = await sessionRows(merchant.account.id);
    expect(row).toMatchObject({ reference: "order-4711", metadata, livemode: true });

    const request = await call("GET", `/api/age-verification/session/${opened.session_id}/request?nonce=${opened.nonce}`, {
      token: user.token,
    });
    expect(request.body.data).toMatchObject({ locale: "fr", return_url: "https://shop.example.com/after-age", livemode: true });
    expect(request.text).not.toContain("order-4711");
    expect(request.text).not.toContain("c-991");
    expect(Object.keys(request.body.data)).not.toContain("reference");
    expect(Object.keys(request.body.data)).not.toContain("metadata");
  });

  it.each([
    ["return_url", { return_url: "http://shop.example.com/back" }],
    ["return_url", { return_url: "javascript:alert(1)" }],
    ["return_url", { return_url: "https://10.0.0.1/back" }],
    ["return_url", { return_url: "https://user:pw@shop.example.com/" }],
    ["reference", { reference: "x".repeat(129) }],
    ["reference", { reference: "line\nbreak" }],
    ["reference", { reference: "" }],
    ["metadata", { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }],
    ["metadata.k", { metadata: { ["k".repeat(41)]: "v" } }],
    ["metadata.k", { metadata: { k: "v".repeat(501) } }],
    ["metadata.k", { metadata: { k: 7 } }],
    ["locale", { locale: "pt" }],
  ])("answers 422 naming %s and opens nothing", async (path, body) => {
    const merchant = await seedMerchant();
    const res = await open(merchant.apiKey, body);
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors!.map((e) => (e.path.startsWith("metadata.k") ? e.path.slice(0, 10) : e.path))).toContain(path);
    expect(await sessionRows(merchant.account.id)).toEqual([]);
  });

  it("accepts the limits exactly: 128 printable characters, 20 pairs of 40/500 characters, http://localhost in development", async () => {
    const merchant = await seedMerchant();
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padStart(40, "k"), "v".repeat(500)]));
    const res = await open(merchant.apiKey, { reference: "~".repeat(128), metadata, return_url: "http://localhost:3000/back" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("callbacks carry reference, metadata, livemode, holder_binding PASSWORD and the receipt, the same as the poll", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(18));
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const opened = (await open(merchant.apiKey, { reference: "order-1", metadata: { a: "b" } })).body.data;
    const completed = await complete(user.token, opened.session_id, opened.nonce);
    expect(completed.body.data).toMatchObject({
      status: "APPROVED",
      reference: "order-1",
      metadata: { a: "b" },
      livemode: true,
      holder_binding: "PASSWORD",
    });
    expect(completed.body.data.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const [event] = await (await dbOfSession(opened.session_id))
      .select()
      .from(callbackEvents)
      .where(eq(callbackEvents.sessionId, opened.session_id));
    await vi.waitFor(async () => expect(await eventState(event!.id)).toBe("delivered"), { timeout: 10_000 });
    const body = JSON.parse(String(spy.mock.calls.find(([input]) => String(input) === CALLBACK_URL)![1]!.body));
    expect(body.data).toEqual(completed.body.data);
    expect((await poll(merchant.apiKey, opened.session_id)).body.data).toEqual(completed.body.data);
  });

  it("holder_binding is PASSWORD for an answer with consent (DENIED by age too) and null for a refusal", async () => {
    const merchant = await seedMerchant();
    const young = await seedEndUser(birthdayToday(18, 1));
    const first = (await open(merchant.apiKey, {})).body.data;
    const denied = await complete(young.token, first.session_id, first.nonce, true);
    expect(denied.body.data).toMatchObject({ status: "DENIED", holder_binding: "PASSWORD" });
    expect(denied.body.data.receipt).toEqual(expect.any(String));
    const second = (await open(merchant.apiKey, {})).body.data;
    const refused = await complete(young.token, second.session_id, second.nonce, false);
    expect(refused.body.data).toMatchObject({ status: "DENIED", holder_binding: null });
  });
});

describe("usage carries the new fields and counts test sessions apart", () => {
  it("the log and the CSV show livemode, reference and metadata; the counts are per mode", async () => {
    const live = await seedMerchant("live key");
    const test = await call("POST", "/api/keys", { token: live.account.token, body: { name: "ci", mode: "test" } });
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    expect(test.body.data.apiKey).toMatch(/^svc_sk_test_[\w-]{43}$/);
    expect(test.body.data.key.mode).toBe("test");
    await open(live.apiKey, { reference: "order-9", metadata: { "x=1": '"quoted", yes' } });
    await open(test.body.data.apiKey, {});
    await open(test.body.data.apiKey, {});

    const page = await call("GET", "/api/usage/sessions", { token: live.account.token });
    const items = page.body.data.items as { livemode: boolean; reference: string | null; metadata: unknown }[];
    expect(items.filter((i) => !i.livemode)).toHaveLength(2);
    expect(items.find((i) => i.livemode)).toMatchObject({ reference: "order-9", metadata: { "x=1": '"quoted", yes' } });

    const csv = await call("GET", "/api/usage/export.csv", { token: live.account.token });
    const [header, ...rows] = parseCsv(csv.text);
    const column = (name: string) => header!.indexOf(name);
    expect(rows.filter((r) => r[column("livemode")] === "false")).toHaveLength(2);
    const liveRow = rows.find((r) => r[column("livemode")] === "true")!;
    expect(liveRow[column("reference")]).toBe("order-9");
    expect(JSON.parse(liveRow[column("metadata")]!)).toEqual({ "x=1": '"quoted", yes' });

    const liveCounts = await call("GET", "/api/usage/summary", { token: live.account.token });
    const testCounts = await call("GET", "/api/usage/summary?mode=test", { token: live.account.token });
    expect(liveCounts.body.data).toMatchObject({ total: 1, pending: 1 });
    expect(testCounts.body.data).toMatchObject({ total: 2, pending: 2 });
    const byKey = await call("GET", "/api/usage/by-key?mode=test", { token: live.account.token });
    expect(byKey.body.data.keys.map((k: { total: number }) => k.total).sort()).toEqual([0, 2]);
  });
});
