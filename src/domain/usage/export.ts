// CSV export of the whole filtered log (docs/api-contract.md §Usage). Rows are read in bounded keyset pages only when
// the client pulls, so memory stays flat however many sessions match and a slow reader slows the reads.
import type { ServiceContext } from "../../context/service-context";
import { log } from "../../lib/log";
import { csvRow } from "../../lib/csv";
import { utf8 } from "../../lib/encoding";
import { exportPageQuery, toUsageItem, type LogFilter, type UsageItem } from "./session-log";
import type { LogPosition } from "./cursor";

/** Rows per D1 query while exporting. */
export const EXPORT_PAGE_SIZE = 500;

const ITEM_COLUMNS = [
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
] as const satisfies readonly (keyof UsageItem)[];

/** Added in 1.2.0, after key_name so that a reader of the 1.1.0 columns finds each where it was. */
const POLICY_COLUMNS = [
  "assurance",
  "holder_binding",
  "denial_reason",
  "accepted_assurance",
  "double_blind",
] as const satisfies readonly (keyof UsageItem)[];

export const CSV_COLUMNS = [...ITEM_COLUMNS, "key_name", ...POLICY_COLUMNS] as const;

/** A pending or expired session has no answer: its above_age_required cell is empty, not "false". */
function csvValue(item: UsageItem, column: (typeof ITEM_COLUMNS)[number] | (typeof POLICY_COLUMNS)[number]) {
  // Unanswered sessions asserted nothing: above_age_required stays empty rather than false.
  if (column === "above_age_required" && (item.status === "PENDING" || item.status === "EXPIRED")) return null;
  // metadata as its JSON text: one cell, parseable back.
  if (column === "metadata") return item.metadata ? JSON.stringify(item.metadata) : null;
  // The accepted ways in one cell, space-separated: `KYC_VERIFIED DIGITAL_ID_VERIFIED`.
  if (column === "accepted_assurance") return item.accepted_assurance.join(" ");
  return item[column];
}

/** `sessions-2026-10-23-2026-11-22.csv`: the UTC days of the window (colons do not belong in file names). */
export const exportFileName = (filter: LogFilter) => `sessions-${filter.from.slice(0, 10)}-${filter.to.slice(0, 10)}.csv`;

export function exportSessionLog({ db }: ServiceContext, accountId: string, filter: LogFilter): ReadableStream<Uint8Array> {
  let after: LogPosition | undefined;
  let headerSent = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(utf8(csvRow(CSV_COLUMNS)));
          return;
        }
        if (done) return;
        try {
          const rows = await exportPageQuery(db, accountId, filter, EXPORT_PAGE_SIZE, after);
          if (rows.length > 0) {
            const text = rows
              .map(({ session, keyName }) => {
                const item = toUsageItem(session);
                return csvRow([
                  ...ITEM_COLUMNS.map((column) => csvValue(item, column)),
                  keyName,
                  ...POLICY_COLUMNS.map((column) => csvValue(item, column)),
                ]);
              })
              .join("");
            controller.enqueue(utf8(text));
            const last = rows.at(-1)!.session;
            after = { createdAt: last.createdAt, id: last.id };
          }
          if (rows.length < EXPORT_PAGE_SIZE) {
            done = true;
            controller.close();
          }
        } catch (error) {
          // Headers are gone already: the client sees a broken download, the log says why (no data).
          log("error", "usage export failed", { accountId, error: (error as Error).name });
          controller.error(error);
        }
      },
    },
    // Pull one page at a time: nothing is read ahead of the client.
    { highWaterMark: 0 },
  );
}
