// Every query shape of the usage reports must walk an index of the session log, never the whole table.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { exportPageQuery, logPageQuery, type LogFilter } from "../../src/domain/usage/session-log";
import { byDayQuery } from "../../src/domain/usage/by-day";
import { byKeyQuery, summaryQuery } from "../../src/domain/usage/totals";
import { FOLD_DAY } from "../../src/maintenance/fold-usage";
import { PRUNABLE } from "../../src/maintenance/prune-session-log";
import { db } from "../helpers/seed";

const range = { from: "2026-10-01T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" };
const after = { createdAt: "2026-10-15T00:00:00.000Z", id: "ses_AAAAAAAAAAAAAAAAAAAAAAAA" };
const account = "usr_AAAAAAAAAAAAAAAAAAAAAAAA";
const key = "key_AAAAAAAAAAAAAAAAAAAAAAAA";

const filters: Record<string, LogFilter> = {
  "no filter": range,
  status: { ...range, status: "APPROVED" },
  key: { ...range, keyId: key },
  "status and key": { ...range, status: "DENIED", keyId: key },
  // The console's log and CSV always send a mode (docs/end-user-apps.md): a filter on the index's last column.
  mode: { ...range, mode: "test" },
  "status and mode": { ...range, status: "PENDING", mode: "live" },
};

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql, params } = query.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

function expectIndexed(details: string[]) {
  const onSessions = details.filter((d) => d.includes("verification_sessions"));
  expect(onSessions.length, details.join("\n")).toBeGreaterThan(0);
  for (const detail of onSessions) {
    expect(detail, details.join("\n")).toMatch(/^SEARCH verification_sessions USING (COVERING )?INDEX sessions_/);
  }
  expect(details.join("\n")).not.toMatch(/SCAN verification_sessions(?! USING)/);
}

describe("usage query plans", () => {
  for (const [name, filter] of Object.entries(filters)) {
    it(`the log page (${name}) searches an index, first page and after a cursor`, async () => {
      for (const details of [
        await plan(logPageQuery(db(), account, filter, 51)),
        await plan(logPageQuery(db(), account, filter, 51, after)),
      ]) {
        expectIndexed(details);
        // Newest first comes straight off the index: no sort of the whole window per page.
        expect(details.join("\n")).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    });

    it(`the export page (${name}) searches an index and reads keys by primary key`, async () => {
      const details = await plan(exportPageQuery(db(), account, filter, 500, after));
      expectIndexed(details);
      expect(details.join("\n")).not.toMatch(/SCAN api_keys/);
    });
  }

  // The counts read the raw log from its boundary day on and the daily rollup before it (one UNION ALL):
  // the raw branch on the covering index, the rollup on its primary key's range, never a scan.
  function expectCountsIndexed(details: string[], covering = true) {
    expectIndexed(details);
    // (account_id, status, created_at, id, livemode) holds every column the summary and the per-day raw
    // branch read; the per-key one also reads key_id from the row.
    const index = covering
      ? /SEARCH verification_sessions USING COVERING INDEX sessions_account_status_created/
      : /SEARCH verification_sessions USING INDEX sessions_account_status_created/;
    expect(details.join("\n")).toMatch(index);
    expect(details.join("\n")).toMatch(/SEARCH usage_days USING PRIMARY KEY \(account_id=\? AND livemode=\? AND day>\? AND day<\?\)/);
    expect(details.join("\n")).not.toMatch(/SCAN usage_days/);
  }

  it("the summary searches the covering index and the rollup's key", async () => {
    expectCountsIndexed(await plan(summaryQuery(db(), account, { ...range, livemode: true })));
  });

  it("the per-key breakdown searches the covering index and the rollup's key", async () => {
    expectCountsIndexed(await plan(byKeyQuery(db(), account, { ...range, livemode: false })), false);
  });

  it("the per-day breakdown searches the covering index and the rollup's key, reading no table row", async () => {
    expectCountsIndexed(await plan(byDayQuery(db(), account, range)));
  });

  // The scheduled run's side of the rollup: one day of the log, and the folded prefix, by created_at.
  it("the fold reads one day through sessions_created, and the retention's delete walks it to one bound", async () => {
    const explain = async (sql: string, ...params: unknown[]) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...params)
          .all<{ detail: string }>()
      ).results
        .map((row) => row.detail)
        .join("\n");
    const fold = await explain(FOLD_DAY, "2026-10-01", "2026-10-02");
    expect(fold).toMatch(/SEARCH verification_sessions USING INDEX sessions_created \(created_at>\? AND created_at<\?\)/);
    expect(fold).not.toMatch(/SCAN verification_sessions/);
    const prune = await explain(`SELECT rowid FROM verification_sessions WHERE ${PRUNABLE} LIMIT ?`, "2026-10-01T00:00:00.000Z", 500);
    expect(prune).toMatch(/SEARCH verification_sessions USING COVERING INDEX sessions_created \(created_at<\?\)/);
  });
});
