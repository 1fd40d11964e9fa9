// An applicant whose deletion at the provider failed through every queue retry is asked for again by
// the scheduled run a day later: the row goes back on the mail queue as the same deletion message and
// the real consumer deletes it; a provider switched away is left for the operator; a failed enqueue
// keeps the row; each run is bounded.
import { env } from "cloudflare:test";
import { eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { applicantDeletionFailures, mailFailures, sandboxDeletedApplicants } from "../../src/db/schema";
import { APPLICANT_RETRIES_PER_RUN } from "../../src/maintenance/retry-applicant-deletions";
import { runQueue } from "../helpers/callbacks";
import { db } from "../helpers/seed";
import { daysAgo, runScheduled } from "./helpers";

/** A MAIL producer that keeps what it is sent in batches (or fails, as a queue outage would). */
function standInQueue(fail = false) {
  const sent: unknown[] = [];
  const binding = {
    send: async () => Promise.reject(new Error("send is not what the retry uses")),
    sendBatch: async (messages: { body: unknown }[]) => {
      if (fail) throw new Error("queue unavailable");
      sent.push(...messages.map((m) => m.body));
    },
  } as unknown as Queue;
  return { binding, sent };
}

/** An applicant id of the sandbox provider's own shape (it refuses any other). */
const sandboxApplicantId = () => `sbxapp_${crypto.randomUUID().replaceAll("-", "").slice(0, 18)}_19900401`;

const failure = (applicantId: string, failedAt: string, error = "PROVIDER_ERROR") => ({
  provider: "sandbox",
  applicantId,
  error,
  attempts: 8,
  failedAt,
});
const rowsFor = (prefix: string) =>
  db()
    .select()
    .from(applicantDeletionFailures)
    .where(like(applicantDeletionFailures.applicantId, `${prefix}%`));

describe("scheduled retry of applicant deletions", () => {
  it("a failure older than a day goes back on the queue and is removed; the consumer then deletes the applicant at the provider", async () => {
    const old = sandboxApplicantId();
    const recent = sandboxApplicantId();
    await db()
      .insert(applicantDeletionFailures)
      .values([failure(old, daysAgo(1.1)), failure(recent, daysAgo(0.5))]);
    const queue = standInQueue();
    await runScheduled({ ...env, MAIL: queue.binding });

    const mine = (sent: unknown[]) => sent.filter((m) => [old, recent].includes((m as { applicantId: string }).applicantId));
    expect(mine(queue.sent)).toEqual([{ type: "delete-applicant", provider: "sandbox", applicantId: old }]);
    const left = await db()
      .select()
      .from(applicantDeletionFailures)
      .where(inArray(applicantDeletionFailures.applicantId, [old, recent]));
    expect(left.map((r) => r.applicantId)).toEqual([recent]);

    // The message is the consumer's own format: the real mail-queue consumer deletes the applicant.
    const { result } = await runQueue("mail", mine(queue.sent) as never[], env, { attempts: 1 });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await db().select().from(sandboxDeletedApplicants).where(eq(sandboxDeletedApplicants.applicantId, old))).toHaveLength(1);

    // A second run finds nothing more that is due.
    const again = standInQueue();
    await runScheduled({ ...env, MAIL: again.binding });
    expect(mine(again.sent)).toEqual([]);
  });

  it("a failure because the provider was switched stays for the operator: no configured provider knows that applicant", async () => {
    const prefix = `switched-${crypto.randomUUID()}`;
    await db()
      .insert(applicantDeletionFailures)
      .values(failure(`${prefix}-a`, daysAgo(3), "provider_changed"));
    const queue = standInQueue();
    await runScheduled({ ...env, MAIL: queue.binding });
    expect(queue.sent.filter((m) => JSON.stringify(m).includes(prefix))).toEqual([]);
    expect(await rowsFor(prefix)).toHaveLength(1);
  });

  it("a queue that refuses the batch keeps every row for the next run", async () => {
    const prefix = `outage-${crypto.randomUUID()}`;
    await db()
      .insert(applicantDeletionFailures)
      .values(failure(`${prefix}-a`, daysAgo(2)));
    await runScheduled({ ...env, MAIL: standInQueue(true).binding });
    expect(await rowsFor(prefix)).toHaveLength(1);
  });

  it("asks for at most APPLICANT_RETRIES_PER_RUN per run, oldest first; the rest waits for the next run", async () => {
    const prefix = `bounded-${crypto.randomUUID()}`;
    // Older than anything the other tests insert, so this test's rows are the oldest due.
    const rows = Array.from({ length: APPLICANT_RETRIES_PER_RUN + 5 }, (_, i) =>
      failure(`${prefix}-${String(i).padStart(3, "0")}`, daysAgo(400 - i / 100)),
    );
    for (let i = 0; i < rows.length; i += 10)
      await db()
        .insert(applicantDeletionFailures)
        .values(rows.slice(i, i + 10));
    const first = standInQueue();
    await runScheduled({ ...env, MAIL: first.binding });
    expect(first.sent).toHaveLength(APPLICANT_RETRIES_PER_RUN);
    expect((await rowsFor(prefix)).map((r) => r.applicantId).sort()).toEqual(
      rows.slice(APPLICANT_RETRIES_PER_RUN).map((r) => r.applicantId),
    );
    const second = standInQueue();
    await runScheduled({ ...env, MAIL: second.binding });
    expect(second.sent.filter((m) => JSON.stringify(m).includes(prefix))).toHaveLength(5);
    expect(await rowsFor(prefix)).toEqual([]);
  });
});

describe("undelivered-mail records", () => {
  it("are deleted once 30 days old; younger ones stay", async () => {
    const purpose = `prune-${crypto.randomUUID()}`;
    await db()
      .insert(mailFailures)
      .values([
        { recipientHash: "h", purpose, error: "old", attempts: 8, failedAt: daysAgo(30.1) },
        { recipientHash: "h", purpose, error: "young", attempts: 8, failedAt: daysAgo(29.9) },
      ]);
    await runScheduled();
    expect((await db().select().from(mailFailures).where(eq(mailFailures.purpose, purpose))).map((r) => r.error)).toEqual(["young"]);
  });
});
