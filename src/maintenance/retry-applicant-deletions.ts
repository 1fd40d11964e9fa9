// Applicants a deleted account left at the identity provider (applicant_deletion_failures, recorded by
// src/providers/applicant-deletion.ts after the queue's last retry) are asked for again once a day:
// a provider outage longer than the queue's 45 minutes of back-off must not leave a person's documents
// at the provider for ever. Each row goes back on the mail queue as the same deletion message and is
// removed here; a deletion that fails again through every retry is recorded again, with a new time. A
// row whose provider was switched away is not retried: no configured provider knows that applicant,
// and only the operator can delete it (docs/operations.md).
import type { ApplicantDeletionMessage } from "../providers/applicant-deletion";
import type { ServiceContext } from "../context/service-context";
import { DAY_MS } from "../lib/time";

/** Rows asked for again per run, at most (one queue batch). */
export const APPLICANT_RETRIES_PER_RUN = 50;

export type ApplicantRetryResult = { requeued: number; more: boolean };

type FailureRow = { id: number; provider: ApplicantDeletionMessage["provider"]; applicantId: string };

export async function retryApplicantDeletions(ctx: ServiceContext, now: Date): Promise<ApplicantRetryResult> {
  const { results } = await ctx.home.$client
    .prepare(
      `SELECT id, provider, applicant_id AS applicantId FROM applicant_deletion_failures
     WHERE failed_at < ? AND error <> 'provider_changed'
     ORDER BY failed_at, id LIMIT ?`,
    )
    .bind(new Date(now.getTime() - DAY_MS).toISOString(), APPLICANT_RETRIES_PER_RUN + 1)
    .all<FailureRow>();
  const rows = results.slice(0, APPLICANT_RETRIES_PER_RUN);
  if (rows.length === 0) return { requeued: 0, more: false };
  // Enqueued first, deleted after: a failed enqueue keeps every row for the next run; a failed delete
  // after it only asks the provider twice, and deleting an applicant that is already gone is done.
  await ctx.mailQueue.sendBatch(
    rows.map((row) => ({
      body: { type: "delete-applicant", provider: row.provider, applicantId: row.applicantId } satisfies ApplicantDeletionMessage,
    })),
  );
  await ctx.home.$client
    .prepare(`DELETE FROM applicant_deletion_failures WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(rows.map((row) => row.id)))
    .run();
  return { requeued: rows.length, more: results.length > APPLICANT_RETRIES_PER_RUN };
}
