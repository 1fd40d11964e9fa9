import { createExecutionContext, env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { createApiKey, revokeApiKey } from "../../src/domain/keys/api-keys";
import { eq } from "drizzle-orm";
import { apiKeys, type SessionLogRow } from "../../src/db/schema";
import { EXPORT_PAGE_SIZE } from "../../src/domain/usage/export";
import { SESSION_STATUSES } from "../../src/session/session-status";
import { parseCsv } from "../helpers/csv-parse";
import { call, expectError } from "../helpers/http";
import { root, seedAccount, seedMerchant, type SeededAccount } from "../helpers/seed";
import { recordingD1, seedSessions } from "../helpers/sessions-log";
import { countAllShards, dbOfAccount, shardBindings } from "../helpers/shards";
import { shardBindingName } from "../../src/config/shards-setting";
import { rowWhere } from "../helpers/rows";

// A key name a spreadsheet would run as a formula, with a comma and a quote for the CSV quoting.
const TRICKY_NAME = '=HYPERLINK("https://evil.test"), "EU" shop';
const COLUMNS = [
  "session_id",
  "key_id",
  "status",
  "age_required",
  "above_age_required",
  "created_at",
  "resolved_at",
  "expires_at",
  "livemode",
  "reference",
  "metadata",
  "key_name",
  "assurance",
  "holder_binding",
  "denial_reason",
  "accepted_assurance",
  "double_blind",
];
/** The 1.2.0 columns come after key_name, so that the 1.1.0 ones keep their places. */
const ITEM_CSV_COLUMNS = COLUMNS.filter((c) => c !== "key_name");

type Merchant = { account: SeededAccount; keys: { id: string; name: string; prefix: string }[]; rows: SessionLogRow[] };

async function merchantWithSessions(count: number, options: { newest?: number; stepMs?: number; shard?: number } = {}): Promise<Merchant> {
  const { shard, ...when } = options;
  const { account, keyId } = await seedMerchant("Web shop", "live", shard === undefined ? {} : { shard });
  const second = await createApiKey(root().onShard(account.shard), account.id, TRICKY_NAME);
  const firstRecord = (await rowWhere(await dbOfAccount(account.id), apiKeys, eq(apiKeys.id, keyId)))!;
  const rows = await seedSessions({ accountId: account.id, keyIds: [keyId, second.key.id], count, ...when });
  return {
    account,
    keys: [
      { id: keyId, name: firstRecord.name, prefix: firstRecord.prefix },
      { id: second.key.id, name: second.key.name, prefix: second.key.prefix },
    ],
    rows,
  };
}

/** Follows next_cursor to the end; `between` runs after each page. */
async function pageAll(token: string, query: string, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const res: Awaited<ReturnType<typeof call<any>>> = await call(
      "GET",
      `/api/usage/sessions?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.data.items.map((item: { session_id: string }) => item.session_id));
    cursor = res.body.data.next_cursor;
    if (!cursor) return ids;
    await between?.(page);
  }
  throw new Error("pagination did not end");
}

/** The documented item of a stored row, written out field by field (not with the product's mapper). */
const itemOf = (row: SessionLogRow) => ({
  session_id: row.id,
  key_id: row.keyId,
  status: row.status,
  age_required: row.ageRequired,
  above_age_required: row.aboveAgeRequired,
  created_at: row.createdAt,
  resolved_at: row.resolvedAt,
  expires_at: row.expiresAt,
  livemode: row.livemode,
  reference: row.reference,
  metadata: row.metadata,
  assurance: row.assurance,
  holder_binding: row.holderBinding,
  denial_reason: row.denialReason,
  accepted_assurance: row.acceptedAssurance,
  double_blind: row.doubleBlind,
});

const countsOf = (rows: SessionLogRow[]) => ({
  total: rows.length,
  approved: rows.filter((r) => r.status === "APPROVED").length,
  denied: rows.filter((r) => r.status === "DENIED").length,
  expired: rows.filter((r) => r.status === "EXPIRED").length,
  pending: rows.filter((r) => r.status === "PENDING").length,
});

const newestFirst = (rows: SessionLogRow[]) =>
  [...rows].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));

const sessionCount = () => countAllShards("SELECT count(*) AS n FROM verification_sessions");

describe("usage reporting", () => {
  let merchant: Merchant;
  let other: Merchant;
  let personal: SeededAccount;

  beforeAll(async () => {
    merchant = await merchantWithSessions(300);
    // Revoked keys stay in the reports.
    await revokeApiKey(root().onShard(merchant.account.shard), merchant.account.id, merchant.keys[1]!.id);
    // On the merchant's shard, so that a read which forgot the account would meet the merchant's rows.
    other = await merchantWithSessions(24, { shard: merchant.account.shard });
    personal = await seedAccount({ userType: "PERSONAL" });
  });

  describe("happy", () => {
    it("pages at limit 7 through every row exactly once, newest first", async () => {
      const ids = await pageAll(merchant.account.token, "limit=7");
      expect(ids).toEqual(merchant.rows.map((r) => r.id));
    });

    it("returns the item fields exactly, with no end-user identity", async () => {
      const res = await call("GET", "/api/usage/sessions?limit=8", { token: merchant.account.token });
      expect(res.body.data.items).toEqual(merchant.rows.slice(0, 8).map(itemOf));
      expect(Object.keys(res.body.data.items[0]).sort()).toEqual(COLUMNS.filter((c) => c !== "key_name").sort());
    });

    it("answers each field with its own stored value (literal rows: every time and flag differs)", async () => {
      const { account, keyId } = await seedMerchant("Literal shop");
      // Two sessions opened 2026-03-01T12:00:00.000Z: PENDING (age 13) and APPROVED (age 14, resolved after 60 s).
      const rows = await seedSessions({ accountId: account.id, keyIds: [keyId], count: 2, newest: Date.parse("2026-03-01T12:00:00.000Z") });
      const res = await call("GET", "/api/usage/sessions?from=2026-03-01&to=2026-03-01", { token: account.token });
      const byStatus = Object.fromEntries(res.body.data.items.map((item: { status: string }) => [item.status, item]));
      expect(byStatus).toEqual({
        PENDING: {
          session_id: rows.find((r) => r.status === "PENDING")!.id,
          key_id: keyId,
          status: "PENDING",
          age_required: 13,
          above_age_required: false,
          created_at: "2026-03-01T12:00:00.000Z",
          resolved_at: null,
          expires_at: "2026-03-01T12:30:00.000Z",
          livemode: true,
          reference: null,
          metadata: null,
          assurance: null,
          holder_binding: null,
          denial_reason: null,
          accepted_assurance: ["KYC_VERIFIED"],
          double_blind: false,
        },
        APPROVED: {
          session_id: rows.find((r) => r.status === "APPROVED")!.id,
          key_id: keyId,
          status: "APPROVED",
          age_required: 14,
          above_age_required: true,
          created_at: "2026-03-01T12:00:00.000Z",
          resolved_at: "2026-03-01T12:01:00.000Z",
          expires_at: "2026-03-01T12:30:00.000Z",
          livemode: true,
          reference: null,
          metadata: null,
          assurance: "KYC_VERIFIED",
          holder_binding: "PASSWORD",
          denial_reason: null,
          accepted_assurance: ["KYC_VERIFIED"],
          double_blind: false,
        },
      });
    });

    it("defaults to 50 rows a page and ends with next_cursor null", async () => {
      const first = await call("GET", "/api/usage/sessions", { token: merchant.account.token });
      expect(first.body.data.items).toHaveLength(50);
      expect(typeof first.body.data.next_cursor).toBe("string");
      const all = await call("GET", "/api/usage/sessions?limit=200&from=2000-01-01&to=2000-01-02", { token: merchant.account.token });
      expect(all.body.data).toEqual({ items: [], next_cursor: null });
    });

    it("never repeats or skips a row when sessions are opened between pages", async () => {
      const fresh = await merchantWithSessions(60);
      const batches: SessionLogRow[][] = [];
      const openMore = async () => {
        // Opened now: newer than every row already paged.
        const rows = await seedSessions({
          accountId: fresh.account.id,
          keyIds: [fresh.keys[0]!.id],
          count: 5,
          newest: Date.now(),
          stepMs: 1,
          sameTime: 1,
        });
        batches.push(rows);
      };
      // Default window: `to` is fixed at the first page, so later sessions stay out.
      const withDefaultWindow = await pageAll(fresh.account.token, "limit=7", openMore);
      expect(withDefaultWindow).toEqual(fresh.rows.map((r) => r.id));
      expect(batches.length).toBeGreaterThan(5);

      // A window reaching into the future: the keyset alone keeps later sessions out.
      const openedBefore = newestFirst(batches.flat()).map((r) => r.id);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const withOpenEnd = await pageAll(fresh.account.token, `limit=7&to=${tomorrow}`, openMore);
      expect(withOpenEnd).toEqual([...openedBefore, ...fresh.rows.map((r) => r.id)]);
    });

    it("filters by status and by key, alone and together, agreeing with the seeded truth", async () => {
      const token = merchant.account.token;
      for (const status of SESSION_STATUSES) {
        expect(await pageAll(token, `limit=200&status=${status}`)).toEqual(
          merchant.rows.filter((r) => r.status === status).map((r) => r.id),
        );
      }
      for (const key of merchant.keys) {
        expect(await pageAll(token, `limit=13&key_id=${key.id}`)).toEqual(merchant.rows.filter((r) => r.keyId === key.id).map((r) => r.id));
        expect(await pageAll(token, `limit=5&key_id=${key.id}&status=DENIED`)).toEqual(
          merchant.rows.filter((r) => r.keyId === key.id && r.status === "DENIED").map((r) => r.id),
        );
      }
    });

    it("filters by from/to inclusively, also in the summary", async () => {
      const to = merchant.rows[30]!.createdAt;
      const from = merchant.rows[200]!.createdAt;
      const truth = merchant.rows.filter((r) => r.createdAt >= from && r.createdAt <= to);
      const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      expect(await pageAll(merchant.account.token, `limit=9&${query}`)).toEqual(truth.map((r) => r.id));
      const summary = await call("GET", `/api/usage/summary?${query}`, { token: merchant.account.token });
      expect(summary.body.data).toEqual({ from, to, ...countsOf(truth) });
    });

    it("summary and per-key counts agree with each other and with the seeded truth, revoked key included", async () => {
      const token = merchant.account.token;
      const summary = await call("GET", "/api/usage/summary", { token });
      expect(summary.status).toBe(200);
      expect(summary.body.data).toMatchObject(countsOf(merchant.rows));
      expect(Date.parse(summary.body.data.to) - Date.parse(summary.body.data.from)).toBe(30 * 86_400_000);

      const byKey = await call("GET", "/api/usage/by-key", { token });
      expect(byKey.status).toBe(200);
      expect(byKey.body.data.keys).toEqual(
        merchant.keys.map((key) => ({
          key_id: key.id,
          name: key.name,
          prefix: key.prefix,
          ...countsOf(merchant.rows.filter((r) => r.keyId === key.id)),
        })),
      );
      for (const field of ["total", "approved", "denied", "expired", "pending"] as const) {
        const sum = byKey.body.data.keys.reduce((n: number, key: Record<string, number>) => n + key[field]!, 0);
        expect(sum).toBe(summary.body.data[field]);
      }
      for (const status of SESSION_STATUSES) {
        const listed = await pageAll(token, `limit=200&status=${status}`);
        expect(listed.length).toBe(summary.body.data[status.toLowerCase()]);
      }
    });

    it("counts each UTC day like the seeded truth, lists empty days as zeros, and sums to the summary", async () => {
      const token = merchant.account.token;
      // The default window ends now; one fixed `to` keeps both answers on the same window.
      const query = `to=${encodeURIComponent(new Date().toISOString())}`;
      const summary = await call("GET", `/api/usage/summary?${query}`, { token });
      const res = await call("GET", `/api/usage/by-day?${query}`, { token });
      expect(res.status).toBe(200);
      const { from, to, days } = res.body.data;
      expect({ from, to }).toEqual({ from: summary.body.data.from, to: summary.body.data.to });
      // 30 days from a time of day touch 31 calendar days, oldest first, each once.
      expect(days.map((d: { date: string }) => d.date)).toEqual(
        Array.from({ length: 31 }, (_, i) => new Date(Date.parse(from.slice(0, 10)) + i * 86_400_000).toISOString().slice(0, 10)),
      );
      for (const entry of days) {
        expect(entry).toEqual({ date: entry.date, ...countsOf(merchant.rows.filter((r) => r.createdAt.startsWith(entry.date))) });
      }
      expect(days.some((d: { total: number }) => d.total === 0)).toBe(true);
      for (const field of ["total", "approved", "denied", "expired", "pending"] as const) {
        expect(days.reduce((n: number, d: Record<string, number>) => n + d[field]!, 0)).toBe(summary.body.data[field]);
      }
    });

    it("counts only the part of the first and last day inside a date-time window, like the summary", async () => {
      const to = merchant.rows[30]!.createdAt;
      const from = merchant.rows[200]!.createdAt;
      const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      const res = await call("GET", `/api/usage/by-day?${query}`, { token: merchant.account.token });
      const summary = await call("GET", `/api/usage/summary?${query}`, { token: merchant.account.token });
      const { days } = res.body.data;
      expect(days[0].date).toBe(from.slice(0, 10));
      expect(days.at(-1).date).toBe(to.slice(0, 10));
      const inside = merchant.rows.filter((r) => r.createdAt >= from && r.createdAt <= to);
      for (const entry of days) {
        expect(entry).toEqual({ date: entry.date, ...countsOf(inside.filter((r) => r.createdAt.startsWith(entry.date))) });
      }
      expect(days.reduce((n: number, d: { total: number }) => n + d.total, 0)).toBe(summary.body.data.total);
    });

    it("lists every day of the widest window, 367 calendar days, as zeros when it holds no sessions", async () => {
      const res = await call("GET", "/api/usage/by-day?from=2001-01-01T12:00:00Z&to=2002-01-02T12:00:00Z", {
        token: merchant.account.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.from).toBe("2001-01-01T12:00:00.000Z");
      expect(res.body.data.days).toHaveLength(367);
      expect(res.body.data.days[0]).toEqual({ date: "2001-01-01", total: 0, approved: 0, denied: 0, expired: 0, pending: 0 });
      expect(res.body.data.days.at(-1).date).toBe("2002-01-02");
    });

    it("lists every key with zeros for a window without sessions", async () => {
      const res = await call("GET", "/api/usage/by-key?from=2001-01-01&to=2001-01-31", { token: merchant.account.token });
      expect(res.body.data).toEqual({
        from: "2001-01-01T00:00:00.000Z",
        to: "2001-01-31T23:59:59.999Z",
        keys: merchant.keys.map((k) => ({
          key_id: k.id,
          name: k.name,
          prefix: k.prefix,
          total: 0,
          approved: 0,
          denied: 0,
          expired: 0,
          pending: 0,
        })),
      });
    });

    it("exports every matching row as CSV that parses back to the same values", async () => {
      const res = await call("GET", "/api/usage/export.csv?from=2026-01-01", { token: merchant.account.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const today = new Date().toISOString().slice(0, 10);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="sessions-2026-01-01-${today}.csv"`);
      const [header, ...lines] = parseCsv(res.text);
      expect(header).toEqual(COLUMNS);
      const names = new Map(merchant.keys.map((k) => [k.id, k.name]));
      expect(lines).toEqual(
        merchant.rows.map((row) => {
          const item = itemOf(row);
          const unanswered = row.status === "PENDING" || row.status === "EXPIRED";
          const cell = (c: string) => {
            const value = item[c as keyof typeof item];
            if (c === "above_age_required" && unanswered) return "";
            return Array.isArray(value) ? value.join(" ") : String(value ?? "");
          };
          const at = COLUMNS.indexOf("key_name");
          return [
            ...ITEM_CSV_COLUMNS.slice(0, at).map(cell),
            names.get(row.keyId)!.replace(/^=/, "'="),
            ...ITEM_CSV_COLUMNS.slice(at).map(cell),
          ];
        }),
      );
      // Unanswered sessions leave above_age_required empty; answered ones say true or false.
      const column = COLUMNS.indexOf("above_age_required");
      const byStatus = (status: string) => lines.filter((line) => line[2] === status).map((line) => line[column]);
      expect(new Set([...byStatus("PENDING"), ...byStatus("EXPIRED")])).toEqual(new Set([""]));
      expect(byStatus("DENIED").every((v) => v === "false")).toBe(true);
      // One physical line per row: the tricky name is quoted, never split.
      expect(res.text.split("\r\n")).toHaveLength(merchant.rows.length + 2);
      expect(res.text).toContain(`"'=HYPERLINK(""https://evil.test""), ""EU"" shop"`);
    });

    it("exports with the status and key filters", async () => {
      const key = merchant.keys[1]!;
      const res = await call("GET", `/api/usage/export.csv?status=APPROVED&key_id=${key.id}`, { token: merchant.account.token });
      const [, ...lines] = parseCsv(res.text);
      expect(lines.map((l) => l[0])).toEqual(merchant.rows.filter((r) => r.keyId === key.id && r.status === "APPROVED").map((r) => r.id));
    });
  });

  describe("error", () => {
    const endpoints = ["/api/usage/sessions", "/api/usage/export.csv", "/api/usage/by-key", "/api/usage/summary", "/api/usage/by-day"];

    it.each(endpoints)("%s needs a Bearer token (401)", async (path) => {
      expectError(await call("GET", path), 401, "UNAUTHORIZED");
    });

    it.each(endpoints)("%s refuses a personal account with 403 BUSINESS_ACCOUNT_REQUIRED", async (path) => {
      expectError(await call("GET", path, { token: personal.token }), 403, "BUSINESS_ACCOUNT_REQUIRED");
    });

    it.each(["limit=201", "limit=0", "limit=abc", "limit=1.5", "status=OPEN", "status=approved", "key_id=nope", "cursor="])(
      "the log refuses %s with 422",
      async (query) => {
        const before = await sessionCount();
        expectError(await call("GET", `/api/usage/sessions?${query}`, { token: merchant.account.token }), 422, "VALIDATION_FAILED");
        expect(await sessionCount()).toBe(before);
      },
    );

    it("accepts limit=200", async () => {
      const res = await call("GET", "/api/usage/sessions?limit=200", { token: merchant.account.token });
      expect(res.body.data.items).toHaveLength(200);
    });

    it.each(
      endpoints.flatMap((path) =>
        ["from=2026-11-02&to=2026-11-01", "from=2026-02-30", "to=tomorrow", "from=2024-01-01&to=2025-06-01"].map((q) => [path, q]),
      ),
    )("%s refuses the window %s with 422", async (path, query) => {
      const before = await sessionCount();
      const res = await call("GET", `${path}?${query}`, { token: merchant.account.token });
      expect(await sessionCount()).toBe(before);
      expectError(res, 422, "VALIDATION_FAILED");
      expect(res.body.errors![0]!.path).toMatch(/^(from|to)$/);
    });
  });

  describe("security", () => {
    it("another account sees none of these rows, in the log, the export and the counts (per key and per day)", async () => {
      const mine = new Set(merchant.rows.map((r) => r.id));
      const listed = await pageAll(other.account.token, "limit=200");
      expect(listed).toEqual(other.rows.map((r) => r.id));
      expect(await pageAll(other.account.token, `limit=200&key_id=${merchant.keys[0]!.id}`)).toEqual([]);
      const csv = await call("GET", "/api/usage/export.csv", { token: other.account.token });
      expect(
        parseCsv(csv.text)
          .slice(1)
          .some((line) => mine.has(line[0]!)),
      ).toBe(false);
      const summary = await call("GET", "/api/usage/summary", { token: other.account.token });
      expect(summary.body.data.total).toBe(other.rows.length);
      const byKey = await call("GET", "/api/usage/by-key", { token: other.account.token });
      expect(byKey.body.data.keys.map((k: { key_id: string }) => k.key_id)).toEqual(other.keys.map((k) => k.id));
      const byDay = await call("GET", "/api/usage/by-day", { token: other.account.token });
      expect(byDay.body.data.days.reduce((n: number, d: { total: number }) => n + d.total, 0)).toBe(other.rows.length);
    });

    it("refuses another account's cursor with 422", async () => {
      const page = await call("GET", "/api/usage/sessions?limit=7", { token: merchant.account.token });
      const cursor = encodeURIComponent(page.body.data.next_cursor);
      const res = await call("GET", `/api/usage/sessions?limit=7&cursor=${cursor}`, { token: other.account.token });
      expectError(res, 422, "VALIDATION_FAILED");
      expect(res.body.errors).toEqual([expect.objectContaining({ path: "cursor" })]);
    });

    it("refuses a tampered cursor with 422", async () => {
      const page = await call("GET", "/api/usage/sessions?limit=7", { token: merchant.account.token });
      const cursor: string = page.body.data.next_cursor;
      const [payload, mac] = cursor.split(".") as [string, string];
      const decoded = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
      // Point the cursor elsewhere (and widen its window) while keeping the old signature.
      const forged = btoa(JSON.stringify({ ...decoded, c: "2100-01-01T00:00:00.000Z", f: "2000-01-01T00:00:00.000Z" }))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
      const flipped = mac.slice(0, -1) + (mac.endsWith("A") ? "B" : "A");
      for (const bad of [`${forged}.${mac}`, `${payload}.${flipped}`, payload, `${cursor}.x`, "garbage"]) {
        const res = await call("GET", `/api/usage/sessions?limit=7&cursor=${encodeURIComponent(bad)}`, { token: merchant.account.token });
        expectError(res, 422, "VALIDATION_FAILED");
      }
    });

    it("refuses a cursor replayed with other filters", async () => {
      const page = await call("GET", "/api/usage/sessions?limit=7&status=APPROVED", { token: merchant.account.token });
      const cursor = encodeURIComponent(page.body.data.next_cursor);
      for (const query of ["status=DENIED", "", `status=APPROVED&key_id=${merchant.keys[0]!.id}`, "status=APPROVED&from=2020-01-01"]) {
        expectError(
          await call("GET", `/api/usage/sessions?limit=7&${query}&cursor=${cursor}`, { token: merchant.account.token }),
          422,
          "VALIDATION_FAILED",
        );
      }
      // The same filters with another page size are fine.
      expect(
        (await call("GET", `/api/usage/sessions?limit=3&status=APPROVED&cursor=${cursor}`, { token: merchant.account.token })).status,
      ).toBe(200);
    });
  });
});

describe("usage export at scale", () => {
  it("streams 10,000 sessions in bounded queries", { timeout: 120_000 }, async () => {
    const { account, keyId, shard } = await seedMerchant("bulk");
    const rows = await seedSessions({ accountId: account.id, keyIds: [keyId], count: 10_000, stepMs: 60_000 });
    const name = shardBindingName(shard);
    const { binding, statements } = recordingD1(shardBindings()[shard]!);
    const res = await createApp().fetch(
      new Request("https://avs.test/api/usage/export.csv", { headers: { authorization: `Bearer ${account.token}` } }),
      { ...env, [name]: binding },
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    const lines = parseCsv(text);
    expect(lines).toHaveLength(10_001);
    expect(lines.slice(1).map((l) => l[0])).toEqual(rows.map((r) => r.id));

    const reads = statements.filter((s) => /from "verification_sessions"/i.test(s.sql));
    expect(reads).toHaveLength(Math.floor(rows.length / EXPORT_PAGE_SIZE) + 1);
    for (const read of reads) expect(read.params.at(-1)).toBe(EXPORT_PAGE_SIZE);
    expect(EXPORT_PAGE_SIZE).toBeLessThanOrEqual(1000);

    // Reads follow the reader: a client that stops after the first page causes no further queries.
    const lazy = recordingD1(shardBindings()[shard]!);
    const partial = await createApp().fetch(
      new Request("https://avs.test/api/usage/export.csv", { headers: { authorization: `Bearer ${account.token}` } }),
      { ...env, [name]: lazy.binding },
      createExecutionContext(),
    );
    const reader = partial.body!.getReader();
    await reader.read(); // header row
    await reader.read(); // first page
    await reader.cancel();
    expect(lazy.statements.filter((s) => /from "verification_sessions"/i.test(s.sql)).length).toBe(1);
  });
});
