// The merchant's usage reports (docs/api-contract.md §Usage): the session log, its CSV, totals by key and by day.
export { UsageByDay, usageByDay } from "./by-day";
export { CSV_COLUMNS, exportFileName, exportSessionLog } from "./export";
export { resolveRange } from "./range";
export { DEFAULT_PAGE_SIZE, listSessionLog, MAX_PAGE_SIZE, UsagePage } from "./session-log";
export { UsageByKey, usageByKey, UsageSummary, usageSummary } from "./totals";
