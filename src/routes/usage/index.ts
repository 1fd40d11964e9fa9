// Usage reporting (docs/api-contract.md §Usage, tag Usage), mounted at /api/usage: the session log, its CSV export,
// counts per status, per key and per day, and the callback delivery log of one session.
// Business accounts only; every query is scoped to the signed-in account. Guards go on each route, not
// on `use()`: the OpenAPI document reads each route's middleware for its security and responses.
import { areaOf } from "../named-route";
import { exportSessionLogRoute } from "./export-session-log";
import { listSessionCallbacksRoute } from "./list-session-callbacks";
import { listSessionLogRoute } from "./list-session-log";
import { redeliverCallbackRoute } from "./redeliver-callback";
import { usageByDayRoute } from "./usage-by-day";
import { usageByKeyRoute } from "./usage-by-key";
import { usageSummaryRoute } from "./usage-summary";

export const usageRoutes = areaOf(
  listSessionLogRoute,
  exportSessionLogRoute,
  usageByKeyRoute,
  usageByDayRoute,
  usageSummaryRoute,
  listSessionCallbacksRoute,
  redeliverCallbackRoute,
);
