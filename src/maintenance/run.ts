// The Cron Trigger (wrangler.toml [triggers]): every job, each idempotent and bounded per run, one
// after the other; a failing job is logged and does not stop the others. A misconfigured deployment
// runs nothing (it fails closed like the HTTP app).
// Account data is sharded (docs/operations.md): the per-account jobs run once per shard, each on a context whose
// `db` is that shard; the jobs on the home shard's own tables (spent age tokens, attestation grants, the
// development outbox, mail and applicant-deletion failures) run once. This is the one place that reads every shard. The run
// keeps one time budget (MAINTENANCE_BUDGET_MS), split evenly: shard i's jobs start only before
// start + budget × (i + 1) / shards, so time a shard leaves unused passes to the next, and a job not
// started is reported as `skipped` and runs next time (every job is bounded and idempotent). The order
// of the shards turns with each run, so no shard is always the one left for last.
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import { pruneAccountCounters } from "./prune-account-counters";
import { pruneAttestationGrants } from "./prune-attestation-grants";
import { retryApplicantDeletions } from "./retry-applicant-deletions";
import { pruneCallbackAttempts } from "./prune-callback-attempts";
import { pruneDevOutbox } from "./prune-dev-outbox";
import { pruneEmailTokens } from "./prune-email-links";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys";
import { pruneMailFailures } from "./prune-mail-failures";
import { prunePasskeyChallenges } from "./prune-passkey-challenges";
import { logReencryptionSummary, reencryptSigningSecrets, type ReencryptResult } from "./reencrypt-secrets";
import { pruneSessionLog } from "./prune-session-log";
import { foldUsage } from "./fold-usage";
import { resendStalledCallbacks } from "./resend-stalled-callbacks";
import { pruneSpentAgeTokens } from "./prune-spent-age-tokens";
import { deploymentTokenKeys, publishedKeyIds } from "../domain/age-tokens";

export type MaintenanceReport = Record<string, unknown>;

/**
 * The run's wall-clock budget, well inside the 5-minute interval between runs and a Cron Trigger's
 * limits; each job is bounded on its own too (src/maintenance/batch-delete.ts and the per-run counts).
 */
export const MAINTENANCE_BUDGET_MS = 60_000;

type Job = [name: string, run: () => Promise<unknown>];

/** The jobs over one shard's account data: `ctx.db` is that shard. */
function shardJobs(ctx: ServiceContext, now: Date): Job[] {
  const { settings } = ctx;
  const d1 = ctx.db.$client;
  return [
    ["emailTokens", () => pruneEmailTokens(d1, now)],
    ["idempotencyKeys", () => pruneIdempotencyKeys(d1, now)],
    ["passkeyChallenges", () => prunePasskeyChallenges(d1, now)],
    ["callbackAttempts", () => pruneCallbackAttempts(d1, now, settings.callbackLogRetentionDays)],
    // Before the session log's pruning, which deletes only rows of days folded here.
    ["usageFold", () => foldUsage(ctx, now)],
    ["sessionLog", () => pruneSessionLog(d1, now, settings.sessionLogRetentionDays)],
    ["stalledCallbacks", () => resendStalledCallbacks(ctx, now, settings.callbackStallSeconds)],
    ["signingSecrets", () => reencryptSigningSecrets(ctx)],
    ["accountCounters", () => pruneAccountCounters(d1, now)],
  ];
}

/** The jobs over the home shard's own tables, once per run. */
function homeJobs(ctx: ServiceContext, now: Date): Job[] {
  const { settings } = ctx;
  const d1 = ctx.home.$client;
  return [
    ["devOutbox", () => pruneDevOutbox(d1, now)],
    ["mailFailures", () => pruneMailFailures(d1, now)],
    ["applicantDeletions", () => retryApplicantDeletions(ctx, now)],
    ["attestationGrants", () => pruneAttestationGrants(d1, now)],
    // Only keys retired for the grace period lose their records; without token keys nothing changes.
    [
      "spentAgeTokens",
      async () =>
        pruneSpentAgeTokens(d1, publishedKeyIds((await deploymentTokenKeys(settings)) ?? []), now, settings.ageTokenRetirementDays),
    ],
  ];
}

async function runJobs(jobs: Job[], report: MaintenanceReport, deadline: number, labels: Record<string, unknown> = {}): Promise<void> {
  for (const [name, job] of jobs) {
    if (Date.now() >= deadline) {
      report[name] = { skipped: "time budget" };
      continue;
    }
    try {
      report[name] = await job();
    } catch (error) {
      report[name] = { error: error instanceof Error ? error.name : "unknown" };
      log("error", "maintenance job failed", { job: name, ...labels, error: error instanceof Error ? error.name : "unknown" });
    }
  }
}

export async function runMaintenance(controller: ScheduledController, ctx: ServiceContext): Promise<MaintenanceReport> {
  const { settings } = ctx;
  const problems = settings.problems;
  if (problems.length > 0) {
    log("error", "misconfigured: scheduled maintenance skipped", { problems });
    return { skipped: "misconfigured" };
  }
  const started = Date.now();
  const now = new Date(controller.scheduledTime);
  const count = ctx.shards.length;
  // The home jobs are few and small: they go first, within the first shard's share.
  const home: MaintenanceReport = {};
  await runJobs(homeJobs(ctx, now), home, started + MAINTENANCE_BUDGET_MS / count);
  const shards: MaintenanceReport[] = [];
  const first = Math.floor(controller.scheduledTime / 300_000) % count;
  for (let turn = 0; turn < count; turn++) {
    const shard = (first + turn) % count;
    const report: MaintenanceReport = {};
    await runJobs(shardJobs(ctx.onShard(shard), now), report, started + (MAINTENANCE_BUDGET_MS * (turn + 1)) / count, { shard });
    shards[shard] = report;
  }
  // The previous SECRETS_KEY may go only when every shard's rows are done: judged once, over all of them.
  const reencryption = shards.map((shard) => shard.signingSecrets);
  if (reencryption.every((result) => typeof (result as ReencryptResult | undefined)?.remaining === "number"))
    logReencryptionSummary(reencryption as ReencryptResult[]);
  const report: MaintenanceReport = { ...home, shards };
  log("info", "scheduled maintenance", { cron: controller.cron, ...report });
  return report;
}
