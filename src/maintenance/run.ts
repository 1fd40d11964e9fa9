// The Cron Trigger (wrangler.toml [triggers]): every job, each idempotent and bounded per run, one
// after the other; a failing job is logged and does not stop the others. A misconfigured deployment
// runs nothing (it fails closed like the HTTP app).
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import { pruneAccountCounters } from "./prune-account-counters";
import { retryApplicantDeletions } from "./retry-applicant-deletions";
import { pruneCallbackAttempts } from "./prune-callback-attempts";
import { pruneDevOutbox } from "./prune-dev-outbox";
import { pruneEmailTokens } from "./prune-email-links";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys";
import { pruneMailFailures } from "./prune-mail-failures";
import { prunePasskeyChallenges } from "./prune-passkey-challenges";
import { reencryptSigningSecrets } from "./reencrypt-secrets";
import { pruneSessionLog } from "./prune-session-log";
import { foldUsage } from "./fold-usage";
import { resendStalledCallbacks } from "./resend-stalled-callbacks";
import { pruneSpentAgeTokens } from "./spent-age-tokens";
import { deploymentTokenKeys, publishedKeyIds } from "../domain/age-tokens";

export type MaintenanceReport = Record<string, unknown>;

export async function runMaintenance(controller: ScheduledController, ctx: ServiceContext): Promise<MaintenanceReport> {
  const { settings } = ctx;
  const d1 = ctx.db.$client;
  const problems = settings.problems;
  if (problems.length > 0) {
    log("error", "misconfigured: scheduled maintenance skipped", { problems });
    return { skipped: "misconfigured" };
  }
  const now = new Date(controller.scheduledTime);
  const jobs: [string, () => Promise<unknown>][] = [
    ["emailTokens", () => pruneEmailTokens(d1, now)],
    ["devOutbox", () => pruneDevOutbox(d1, now)],
    ["idempotencyKeys", () => pruneIdempotencyKeys(d1, now)],
    ["passkeyChallenges", () => prunePasskeyChallenges(d1, now)],
    ["callbackAttempts", () => pruneCallbackAttempts(d1, now, settings.callbackLogRetentionDays)],
    // Before the session log's pruning, which deletes only rows of days folded here.
    ["usageFold", () => foldUsage(ctx, now)],
    ["sessionLog", () => pruneSessionLog(d1, now, settings.sessionLogRetentionDays)],
    ["stalledCallbacks", () => resendStalledCallbacks(ctx, now, settings.callbackStallSeconds)],
    ["signingSecrets", () => reencryptSigningSecrets(ctx)],
    ["accountCounters", () => pruneAccountCounters(d1, now)],
    ["mailFailures", () => pruneMailFailures(d1, now)],
    ["applicantDeletions", () => retryApplicantDeletions(ctx, now)],
    // Without token keys nothing is pruned: restoring the setting must not make spent tokens spendable again.
    ["spentAgeTokens", async () => pruneSpentAgeTokens(d1, publishedKeyIds((await deploymentTokenKeys(settings)) ?? []))],
  ];
  const report: MaintenanceReport = {};
  for (const [name, job] of jobs) {
    try {
      report[name] = await job();
    } catch (error) {
      report[name] = { error: error instanceof Error ? error.name : "unknown" };
      log("error", "maintenance job failed", { job: name, error: error instanceof Error ? error.name : "unknown" });
    }
  }
  log("info", "scheduled maintenance", { cron: controller.cron, ...report });
  return report;
}

