// The Cron Trigger (wrangler.toml [triggers]): every job, each idempotent and bounded per run, one
// after the other; a failing job is logged and does not stop the others. A misconfigured deployment
// runs nothing (it fails closed like the HTTP app).
import { configurationProblems } from "../config/problems";
import { log } from "../lib/log";
import { pruneAccountCounters } from "./account-counters";
import { retryApplicantDeletions } from "./applicant-deletions";
import { pruneCallbackAttempts } from "./callback-attempts";
import { pruneDevOutbox } from "./dev-outbox";
import { pruneEmailTokens } from "./email-links";
import { pruneIdempotencyKeys } from "./idempotency-keys";
import { pruneMailFailures } from "./mail-failures";
import { prunePasskeyChallenges } from "./passkey-challenges";
import { reencryptSigningSecrets } from "./reencrypt-secrets";
import { pruneSessionLog } from "./session-log";
import { callbackLogRetentionDays, callbackStallSeconds, sessionLogRetentionDays } from "./settings";
import { resendStalledCallbacks } from "./stalled-callbacks";

export type MaintenanceReport = Record<string, unknown>;

export async function runMaintenance(controller: ScheduledController, env: Env): Promise<MaintenanceReport> {
  const problems = configurationProblems(env);
  if (problems.length > 0) {
    log("error", "misconfigured: scheduled maintenance skipped", { problems });
    return { skipped: "misconfigured" };
  }
  const now = new Date(controller.scheduledTime);
  const jobs: [string, () => Promise<unknown>][] = [
    ["emailTokens", () => pruneEmailTokens(env.DB, now)],
    ["devOutbox", () => pruneDevOutbox(env.DB, now)],
    ["idempotencyKeys", () => pruneIdempotencyKeys(env.DB, now)],
    ["passkeyChallenges", () => prunePasskeyChallenges(env.DB, now)],
    ["callbackAttempts", () => pruneCallbackAttempts(env.DB, now, callbackLogRetentionDays(env))],
    ["sessionLog", () => pruneSessionLog(env.DB, now, sessionLogRetentionDays(env))],
    ["stalledCallbacks", () => resendStalledCallbacks(env, now, callbackStallSeconds(env))],
    ["signingSecrets", () => reencryptSigningSecrets(env)],
    ["accountCounters", () => pruneAccountCounters(env.DB, now)],
    ["mailFailures", () => pruneMailFailures(env.DB, now)],
    ["applicantDeletions", () => retryApplicantDeletions(env, now)],
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

