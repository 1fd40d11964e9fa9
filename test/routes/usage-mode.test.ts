// The session log and its CSV export filtered by live/test mode (docs/end-user-apps.md): with `mode` they list exactly
// the sessions the counts of that mode count; without it, both modes as before. Test sessions are seeded
// as every third row, against a truth kept by the seeding helper.
import { beforeAll, describe, expect, it } from "vitest";
import type { SessionLogRow } from "../../src/db/schema";
import { parseCsv } from "../helpers/csv-parse";
import { call, expectError } from "../helpers/http";
import { seedMerchant, type SeededAccount } from "../helpers/seed";
import { seedSessions } from "../helpers/sessions-log";

const countsOf = (rows: SessionLogRow[]) => ({
  total: rows.length,
  approved: rows.filter((r) => r.status === "APPROVED").length,
  denied: rows.filter((r) => r.status === "DENIED").length,
  expired: rows.filter((r) => r.status === "EXPIRED").length,
  pending: rows.filter((r) => r.status === "PENDING").length,
});

async function pageAll(token: string, query: string) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res: Awaited<ReturnType<typeof call<any>>> = await call(
      "GET",
      `/api/usage/sessions?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.data.items.map((item: { session_id: string }) => item.session_id));
    cursor = res.body.data.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error("pagination did not end");
}

describe("usage log and export by mode", () => {
  let account: SeededAccount;
  let rows: SessionLogRow[];
  // One fixed window for every answer: the default `to` is "now" and would move between calls.
  const window = `from=${encodeURIComponent(new Date(Date.now() - 20 * 86_400_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;

  beforeAll(async () => {
    const merchant = await seedMerchant("Mode shop");
    account = merchant.account;
    rows = await seedSessions({ accountId: account.id, keyIds: [merchant.keyId], count: 60, testSession: (i) => i % 3 === 0 });
  });

  const truth = (mode: "live" | "test" | undefined) => rows.filter((r) => mode === undefined || r.livemode === (mode === "live"));

  it.each(["live", "test"] as const)("mode=%s: the log pages through exactly the sessions the summary counts", async (mode) => {
    const expected = truth(mode);
    expect(expected.length).toBeGreaterThan(0);
    expect(await pageAll(account.token, `limit=7&mode=${mode}&${window}`)).toEqual(expected.map((r) => r.id));
    const summary = await call("GET", `/api/usage/summary?mode=${mode}&${window}`, { token: account.token });
    expect(summary.body.data).toMatchObject(countsOf(expected));
    const items = (await call("GET", `/api/usage/sessions?limit=200&mode=${mode}&${window}`, { token: account.token })).body.data.items;
    expect(new Set(items.map((item: { livemode: boolean }) => item.livemode))).toEqual(new Set([mode === "live"]));
  });

  it.each(["live", "test"] as const)("mode=%s: the CSV holds exactly the sessions the summary counts", async (mode) => {
    const res = await call("GET", `/api/usage/export.csv?mode=${mode}&${window}`, { token: account.token });
    expect(res.status).toBe(200);
    const [header, ...lines] = parseCsv(res.text);
    expect(lines.map((line) => line[0])).toEqual(truth(mode).map((r) => r.id));
    const livemode = header!.indexOf("livemode");
    expect(new Set(lines.map((line) => line[livemode]))).toEqual(new Set([mode === "live" ? "true" : "false"]));
  });

  it("without mode the log and the CSV list both modes, as before", async () => {
    expect(await pageAll(account.token, `limit=50&${window}`)).toEqual(truth(undefined).map((r) => r.id));
    const [, ...lines] = parseCsv((await call("GET", `/api/usage/export.csv?${window}`, { token: account.token })).text);
    expect(lines).toHaveLength(rows.length);
  });

  it("combines mode with the status filter", async () => {
    expect(await pageAll(account.token, `limit=3&mode=test&status=DENIED&${window}`)).toEqual(
      rows.filter((r) => !r.livemode && r.status === "DENIED").map((r) => r.id),
    );
  });

  it("refuses a cursor replayed with another mode or without it, and an unknown mode", async () => {
    const page = await call("GET", `/api/usage/sessions?limit=5&mode=test&${window}`, { token: account.token });
    const cursor = encodeURIComponent(page.body.data.next_cursor);
    for (const query of ["mode=live&", ""]) {
      expectError(
        await call("GET", `/api/usage/sessions?limit=5&${query}${window}&cursor=${cursor}`, { token: account.token }),
        422,
        "VALIDATION_FAILED",
      );
    }
    expect((await call("GET", `/api/usage/sessions?limit=5&mode=test&${window}&cursor=${cursor}`, { token: account.token })).status).toBe(
      200,
    );
    expectError(await call("GET", "/api/usage/sessions?mode=sandbox", { token: account.token }), 422, "VALIDATION_FAILED");
    expectError(await call("GET", "/api/usage/export.csv?mode=sandbox", { token: account.token }), 422, "VALIDATION_FAILED");
  });
});
