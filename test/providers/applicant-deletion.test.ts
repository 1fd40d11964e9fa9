// Account deletion deletes the applicant at the identity provider too: enqueued on the mail queue after
// our own data is gone (never waiting for the provider), deleted by the real queue consumer, retried
// with back-off while the provider is down, and recorded for the operator after the last attempt.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applicantDeletionFailures, kycRecords, sandboxDeletedApplicants, users } from "../../src/db/schema";
import { MAIL_MAX_ATTEMPTS, mailRetryDelaySeconds } from "../../src/mail/mail-consumer";
import type { ApplicantDeletionMessage } from "../../src/providers/applicant-deletion";
import { registerVerified } from "../helpers/accounts";
import { runQueue } from "../helpers/callbacks";
import { callWith, ONFIDO_URL, onfidoEnv, verifyKycViaSandbox } from "../helpers/kyc";
import { db } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";

afterEach(() => vi.restoreAllMocks());

/** A MAIL producer that keeps what it is sent (or fails, as a queue outage would). */
function standInQueue(fail = false) {
  const sent: unknown[] = [];
  return {
    binding: {
      send: async (body: unknown) => (fail ? Promise.reject(new Error("queue unavailable")) : void sent.push(body)),
    } as unknown as Queue,
    sent,
  };
}

/** Onfido's DELETE /applicants/{id}, answering `statuses` in turn (the last one from then on). */
function onfidoDeletes(...statuses: (number | "network")[]) {
  const calls: { method: string; url: string; authorization: string | null }[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    calls.push({ method: request.method, url: request.url, authorization: request.headers.get("authorization") });
    const status = statuses[Math.min(calls.length - 1, statuses.length - 1)]!;
    if (status === "network") throw new TypeError("fetch failed");
    // Onfido's error bodies can quote the applicant: the product must not keep or log them.
    return status === 204
      ? new Response(null, { status })
      : new Response(JSON.stringify({ error: { message: "Ada Lovelace 1815-12-10" } }), { status });
  });
  return calls;
}

const runDeletion = (message: ApplicantDeletionMessage, attempts = 1, bindings: Env = env) =>
  runQueue("mail", [message as never], bindings, { attempts });

const sandboxDeleted = async (applicantId: string) =>
  db().select().from(sandboxDeletedApplicants).where(eq(sandboxDeletedApplicants.applicantId, applicantId));
const failuresFor = (applicantId: string) =>
  db().select().from(applicantDeletionFailures).where(eq(applicantDeletionFailures.applicantId, applicantId));

/** A verified account whose KYC record names an Onfido applicant id of the test's choosing. */
async function accountWithOnfidoApplicant() {
  const account = await registerVerified();
  const applicantId = crypto.randomUUID();
  const now = new Date().toISOString();
  await (await dbOfAccount(account.user.id))
    .insert(kycRecords)
    .values({ userId: account.user.id, applicantId, status: "PENDING", createdAt: now, updatedAt: now });
  return { ...account, applicantId };
}

describe("applicant deletion at the provider (happy)", () => {
  it("sandbox: deleting an account enqueues its applicant's deletion, and the consumer deletes it there", async () => {
    const account = await registerVerified();
    const { applicantId } = await verifyKycViaSandbox(account.token, "1990-04-01");
    const queue = standInQueue();
    const res = await callWith({ ...env, MAIL: queue.binding }, "DELETE", "/api/users/account", { token: account.token });
    expect(res.status).toBe(200);
    // Our data is gone at once; the provider has not been asked yet.
    expect(await (await dbOfAccount(account.user.id)).select().from(users).where(eq(users.id, account.user.id))).toEqual([]);
    expect(await (await dbOfAccount(account.user.id)).select().from(kycRecords).where(eq(kycRecords.applicantId, applicantId))).toEqual([]);
    expect(queue.sent).toEqual([{ type: "delete-applicant", provider: "sandbox", applicantId }]);
    expect(await sandboxDeleted(applicantId)).toEqual([]);

    const { result } = await runDeletion(queue.sent[0] as ApplicantDeletionMessage);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
    expect(await sandboxDeleted(applicantId)).toEqual([{ applicantId, deletedAt: expect.any(String) }]);
  });

  it("an account that never started KYC enqueues nothing", async () => {
    const account = await registerVerified();
    const queue = standInQueue();
    expect((await callWith({ ...env, MAIL: queue.binding }, "DELETE", "/api/users/account", { token: account.token })).status).toBe(200);
    expect(queue.sent).toEqual([]);
  });

  it("Onfido: the account is deleted without a provider call; the consumer's first try sends DELETE /applicants/{id}", async () => {
    const account = await accountWithOnfidoApplicant();
    const calls = onfidoDeletes(204);
    const queue = standInQueue();
    const appEnv = onfidoEnv({ MAIL: queue.binding });
    expect((await callWith(appEnv, "DELETE", "/api/users/account", { token: account.token })).status).toBe(200);
    expect(calls).toEqual([]);
    expect(await (await dbOfAccount(account.user.id)).select().from(users).where(eq(users.id, account.user.id))).toEqual([]);
    expect(queue.sent).toEqual([{ type: "delete-applicant", provider: "onfido", applicantId: account.applicantId }]);

    const { result, retried } = await runDeletion(queue.sent[0] as ApplicantDeletionMessage, 1, appEnv);
    expect(result.explicitAcks).toHaveLength(1);
    expect(retried).toEqual([]);
    expect(calls).toEqual([
      { method: "DELETE", url: `${ONFIDO_URL}/applicants/${account.applicantId}`, authorization: `Token token=${appEnv.ONFIDO_API_TOKEN}` },
    ]);
    expect(await failuresFor(account.applicantId)).toEqual([]);
  });

  it("Onfido: an applicant already gone (404, a retry after a lost answer) counts as deleted", async () => {
    const applicantId = crypto.randomUUID();
    onfidoDeletes(404);
    const { result, retried } = await runDeletion(
      { type: "delete-applicant", provider: "onfido", applicantId },
      MAIL_MAX_ATTEMPTS,
      onfidoEnv(),
    );
    expect(result.explicitAcks).toHaveLength(1);
    expect(retried).toEqual([]);
    expect(await failuresFor(applicantId)).toEqual([]);
  });
});

describe("applicant deletion at the provider (errors)", () => {
  it("provider down: the message is retried with back-off, and the applicant is deleted on a later attempt", async () => {
    const applicantId = crypto.randomUUID();
    const message: ApplicantDeletionMessage = { type: "delete-applicant", provider: "onfido", applicantId };
    const calls = onfidoDeletes(503, "network", 204);
    const first = await runDeletion(message, 1, onfidoEnv());
    expect(first.result.explicitAcks).toEqual([]);
    expect(first.retried).toEqual([{ msgId: expect.any(String), delaySeconds: mailRetryDelaySeconds(1) }]);
    const second = await runDeletion(message, 2, onfidoEnv());
    expect(second.retried).toEqual([{ msgId: expect.any(String), delaySeconds: mailRetryDelaySeconds(2) }]);
    const third = await runDeletion(message, 3, onfidoEnv());
    expect(third.result.explicitAcks).toHaveLength(1);
    expect(third.retried).toEqual([]);
    expect(calls.map((c) => c.method)).toEqual(["DELETE", "DELETE", "DELETE"]);
    expect(await failuresFor(applicantId)).toEqual([]);
  });

  it("after the last attempt the failure is recorded for the operator, without personal data, and the message acked", async () => {
    const applicantId = crypto.randomUUID();
    onfidoDeletes(500);
    const { result, retried } = await runDeletion(
      { type: "delete-applicant", provider: "onfido", applicantId },
      MAIL_MAX_ATTEMPTS,
      onfidoEnv(),
    );
    expect(result.explicitAcks).toHaveLength(1);
    expect(retried).toEqual([]);
    const [failure, ...more] = await failuresFor(applicantId);
    expect(more).toEqual([]);
    expect(failure).toEqual({
      id: expect.any(Number),
      provider: "onfido",
      applicantId,
      error: "PROVIDER_ERROR",
      attempts: MAIL_MAX_ATTEMPTS,
      failedAt: expect.any(String),
    });
    expect(JSON.stringify(failure)).not.toContain("Lovelace");
  });

  it("a message dead-lettered from the mail queue is recorded the same way", async () => {
    const applicantId = crypto.randomUUID();
    const calls = onfidoDeletes(204);
    const { result } = await runQueue(
      "mail-dead-letter",
      [{ type: "delete-applicant", provider: "onfido", applicantId } as never],
      onfidoEnv(),
      { attempts: 1 },
    );
    expect(result.explicitAcks).toHaveLength(1);
    expect(calls).toEqual([]);
    expect(await failuresFor(applicantId)).toEqual([expect.objectContaining({ provider: "onfido", error: "dead_lettered" })]);
  });

  it("if even the enqueue fails, the account is still deleted and the applicant recorded for the operator", async () => {
    const account = await accountWithOnfidoApplicant();
    const calls = onfidoDeletes(204);
    const res = await callWith(onfidoEnv({ MAIL: standInQueue(true).binding }), "DELETE", "/api/users/account", { token: account.token });
    expect(res.status).toBe(200);
    expect(calls).toEqual([]);
    expect(await (await dbOfAccount(account.user.id)).select().from(users).where(eq(users.id, account.user.id))).toEqual([]);
    expect(await failuresFor(account.applicantId)).toEqual([
      expect.objectContaining({ provider: "onfido", error: "not_enqueued", attempts: 0 }),
    ]);
  });

  it("the sandbox refuses an applicant id it never issued (a real provider's 404 for a bad id is a retry, then a record)", async () => {
    const applicantId = "not-a-sandbox-applicant";
    const { retried } = await runDeletion({ type: "delete-applicant", provider: "sandbox", applicantId });
    expect(retried).toHaveLength(1);
    expect(await sandboxDeleted(applicantId)).toEqual([]);
  });
});
