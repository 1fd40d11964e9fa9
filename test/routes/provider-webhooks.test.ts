import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kycRecords } from "../../src/db/schema";
import { expectError } from "../helpers/http";
import { callWith, checkCompletedEvent, onfidoEnv, signedHeaders, storedKyc, stubOnfido } from "../helpers/kyc";
import { seedAccount } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const typed = { firstName: "Ada", lastName: "Lovelace", dob: "1991-01-01" };
const recordOf = async (userId: string) => rowWhere(await dbOfAccount(userId), kycRecords, eq(kycRecords.userId, userId));

let onfido: ReturnType<typeof stubOnfido>;
beforeEach(() => {
  onfido = stubOnfido();
});
afterEach(() => vi.restoreAllMocks());

/** An account with an Onfido applicant, created through the endpoint. */
async function withApplicant() {
  const account = await seedAccount({ userType: "PERSONAL" });
  const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", { token: account.token, body: typed });
  expect(created.status).toBe(201);
  return { ...account, applicantId: created.body.data.applicantId as string };
}

async function deliver(event: unknown, headers?: Record<string, string>) {
  const rawBody = typeof event === "string" ? event : JSON.stringify(event);
  return callWith(onfidoEnv(), "POST", "/api/webhooks/provider", { rawBody, headers: headers ?? (await signedHeaders(rawBody)) });
}

describe("Onfido flow: happy paths", () => {
  it("applicant, SDK token, then a clear check.completed verifies the report's date of birth", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: { ...typed, address: { country: "gbr", street: "Downing Street", town: "London", postcode: "SW1A 2AA" } },
    });
    expect(created.status).toBe(201);
    const applicantId = created.body.data.applicantId;
    expect(onfido.requests[0]).toEqual({
      method: "POST",
      path: "/applicants",
      authorization: "Token token=dev-onfido-token",
      body: {
        first_name: "Ada",
        last_name: "Lovelace",
        dob: "1991-01-01",
        address: { country: "GBR", postcode: "SW1A 2AA", street: "Downing Street", town: "London" },
      },
    });

    const sdk = await callWith(onfidoEnv(), "GET", "/api/kyc/sdk-token", { token: account.token });
    expect(sdk.status).toBe(200);
    expect(sdk.body.data).toEqual({ token: expect.stringMatching(/^sdk\./), applicantId });
    expect(onfido.requests[1]).toMatchObject({ method: "POST", path: "/sdk_token", body: { applicant_id: applicantId } });

    // The document says 1990-04-01; the user typed 1991-01-01. The document wins.
    const checkId = onfido.completeCheck(applicantId, { result: "clear", dob: "1990-04-01" });
    const res = await deliver(checkCompletedEvent(checkId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { received: true } });
    expect(
      onfido.requests
        .slice(2)
        .map((r) => `${r.method} ${r.path.split("/")[1]}`)
        .sort(),
    ).toEqual(["GET checks", "GET reports", "GET reports"]);

    const status = await callWith(onfidoEnv(), "GET", "/api/kyc/status", { token: account.token });
    expect(status.body.data).toEqual({ status: "VERIFIED", verifiedAt: expect.any(String) });
    expect(await storedKyc(account.id)).toEqual({ status: "VERIFIED", verifiedDob: "1990-04-01" });
    expect(await recordOf(account.id)).toMatchObject({ status: "VERIFIED", verifiedDob: "1990-04-01", checkId });
  });

  it("reaches the record of an account on shard 1, found from the applicant through the home shard", async () => {
    const account = await seedAccount({ userType: "PERSONAL", shard: 1 });
    const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", { token: account.token, body: typed });
    expect(created.status).toBe(201);
    const applicantId = created.body.data.applicantId as string;
    expect(await env.DB.prepare("SELECT shard FROM applicant_shards WHERE applicant_id = ?").bind(applicantId).first()).toEqual({
      shard: 1,
    });
    expect(await env.DB.prepare("SELECT 1 FROM kyc_records WHERE applicant_id = ?").bind(applicantId).first()).toBeNull();
    const checkId = onfido.completeCheck(applicantId, { result: "clear", dob: "1990-04-01" });
    expect((await deliver(checkCompletedEvent(checkId))).status).toBe(200);
    expect(await recordOf(account.id)).toMatchObject({ status: "VERIFIED", verifiedDob: "1990-04-01", checkId });
  });

  it("a consider result rejects, and no report is read", async () => {
    const account = await withApplicant();
    const checkId = onfido.completeCheck(account.applicantId, { result: "consider" });
    expect((await deliver(checkCompletedEvent(checkId))).status).toBe(200);
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED", verifiedDob: null, verifiedAt: null, checkId });
    expect(onfido.requests.filter((r) => r.path.startsWith("/reports"))).toEqual([]);
  });

  it("a clear check whose document report is not clear rejects", async () => {
    const account = await withApplicant();
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear", documentResult: "consider" });
    await deliver(checkCompletedEvent(checkId));
    expect((await recordOf(account.id))?.status).toBe("REJECTED");
  });

  it("a clear check without a readable date of birth rejects rather than guessing", async () => {
    const account = await withApplicant();
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear", dob: null });
    await deliver(checkCompletedEvent(checkId));
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED", verifiedDob: null });
  });

  it("the same webhook delivered twice changes the record once", async () => {
    const account = await withApplicant();
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear", dob: "1980-07-07" });
    const event = checkCompletedEvent(checkId);
    expect((await deliver(event)).status).toBe(200);
    const afterFirst = await recordOf(account.id);
    const readsAfterFirst = onfido.requests.length;
    expect((await deliver(event)).status).toBe(200);
    expect(await recordOf(account.id)).toEqual(afterFirst);
    // The redelivery reads the check (to learn its applicant) but not the reports again.
    expect(onfido.requests.slice(readsAfterFirst).map((r) => r.path)).toEqual([`/checks/${checkId}`]);
  });

  it("a rejected check redelivered after a later verification does not undo it", async () => {
    const account = await withApplicant();
    const rejected = onfido.completeCheck(account.applicantId, { result: "consider" });
    await deliver(checkCompletedEvent(rejected));
    const verified = onfido.completeCheck(account.applicantId, { result: "clear", dob: "1975-05-05" });
    await deliver(checkCompletedEvent(verified));
    await deliver(checkCompletedEvent(rejected));
    expect(await recordOf(account.id)).toMatchObject({ status: "VERIFIED", verifiedDob: "1975-05-05", checkId: verified });
  });

  it("an event for an applicant we do not know is acknowledged and ignored", async () => {
    const account = await withApplicant();
    const before = await recordOf(account.id);
    const checkId = onfido.completeCheck(crypto.randomUUID(), { result: "clear" });
    const res = await deliver(checkCompletedEvent(checkId));
    expect(res.status).toBe(200);
    expect(await recordOf(account.id)).toEqual(before);
  });

  it("other events are acknowledged without calling Onfido", async () => {
    const calls = onfido.requests.length;
    const res = await deliver({
      payload: { resource_type: "report", action: "report.completed", object: { id: crypto.randomUUID(), status: "complete" } },
    });
    expect(res.status).toBe(200);
    expect(onfido.requests.length).toBe(calls);
  });

  it("a check that is not complete yet changes nothing", async () => {
    const account = await withApplicant();
    const before = await recordOf(account.id);
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear", status: "in_progress" });
    expect((await deliver(checkCompletedEvent(checkId))).status).toBe(200);
    expect(await recordOf(account.id)).toEqual(before);
  });
});

describe("Onfido flow: errors", () => {
  it("an Onfido error on applicant creation is 502 PROVIDER_ERROR, without Onfido's body, and stores nothing", async () => {
    onfido.fail = 422;
    const account = await seedAccount({ userType: "PERSONAL" });
    const res = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", { token: account.token, body: typed });
    expectError(res, 502, "PROVIDER_ERROR");
    expect(res.text).not.toMatch(/Lovelace|1815|validation_error/);
    expect(await recordOf(account.id)).toBeUndefined();
  });

  it("an unreachable Onfido on SDK token is 502 PROVIDER_ERROR", async () => {
    const account = await withApplicant();
    onfido.fail = "network";
    expectError(await callWith(onfidoEnv(), "GET", "/api/kyc/sdk-token", { token: account.token }), 502, "PROVIDER_ERROR");
  });

  it("an Onfido failure while reading the check is 502 (so Onfido retries) and changes nothing", async () => {
    const account = await withApplicant();
    const before = await recordOf(account.id);
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear" });
    onfido.fail = 503;
    expectError(await deliver(checkCompletedEvent(checkId)), 502, "PROVIDER_ERROR");
    expect(await recordOf(account.id)).toEqual(before);
  });

  it("a check Onfido does not know is 502 and changes nothing", async () => {
    const account = await withApplicant();
    const before = await recordOf(account.id);
    expectError(await deliver(checkCompletedEvent(crypto.randomUUID())), 502, "PROVIDER_ERROR");
    expect(await recordOf(account.id)).toEqual(before);
  });

  it("a signed body that is not JSON is 400 MALFORMED_JSON", async () => {
    expectError(await deliver('{"payload":'), 400, "MALFORMED_JSON");
  });

  it("a signed body of the wrong shape is 422 and calls nobody", async () => {
    const calls = onfido.requests.length;
    const res = await deliver({ payload: { resource_type: "check", action: "check.completed", object: { id: "../applicants" } } });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors!.map((e) => e.path)).toContain("payload.object.id");
    expect(onfido.requests.length).toBe(calls);
  });
});

describe("Onfido webhook: security", () => {
  async function unchangedAfter(headers: (rawBody: string) => Promise<Record<string, string>>) {
    const account = await withApplicant();
    const before = await recordOf(account.id);
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear" });
    const calls = onfido.requests.length;
    const rawBody = JSON.stringify(checkCompletedEvent(checkId));
    const res = await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", { rawBody, headers: await headers(rawBody) });
    expectError(res, 401, "INVALID_SIGNATURE");
    expect(await recordOf(account.id)).toEqual(before);
    expect(onfido.requests.length).toBe(calls);
  }

  it("accepts the signature Onfido documents (hex HMAC-SHA256 of the raw body), and no other encoding or algorithm", async () => {
    // Computed outside the product (Node: createHmac("sha256", token).update(body).digest(...)) under the
    // development token of wrangler.toml; an event kind the service ignores, so no check is read.
    const rawBody =
      '{"payload":{"resource_type":"check","action":"check.started","object":{"id":"5f4b3a1e-9c2d-4e8f-a7b6-0d1c2e3f4a5b","status":"in_progress"}}}';
    const hex = "de9c5df1613121f892c8de7479a2f4d9440b58b442c3aefc0b21a97b033cbe8c";
    expect(env.ONFIDO_WEBHOOK_TOKEN).toBe("dev-onfido-webhook-token");
    expect(await signedHeaders(rawBody)).toEqual({ "content-type": "application/json", "x-sha2-signature": hex });
    const send = (signature: string) => deliver(rawBody, { "content-type": "application/json", "x-sha2-signature": signature });
    expect(await send(hex)).toMatchObject({ status: 200, body: { success: true, data: { received: true } } });
    expect((await send(hex.toUpperCase())).status).toBe(200);
    expectError(await send("3pxd8WExIfiSyN50eaL02UQLWLRCw678CyGpewM8vow="), 401, "INVALID_SIGNATURE"); // the same MAC in base64
    expectError(await send("23dea319e0920caa0b6a03c7564dee96233184e3"), 401, "INVALID_SIGNATURE"); // HMAC-SHA1
    expect(onfido.requests).toEqual([]);
  });

  it("a missing signature is 401 and changes nothing", async () => {
    await unchangedAfter(async () => ({ "content-type": "application/json" }));
  });

  it("a malformed signature is 401 and changes nothing", async () => {
    await unchangedAfter(async () => ({ "content-type": "application/json", "x-sha2-signature": "not-a-signature" }));
  });

  it("a signature over a different body is 401 and changes nothing", async () => {
    await unchangedAfter(async (rawBody) => signedHeaders(rawBody.replace("check.completed", "check.started")));
  });

  it("a signature made with another token is 401 and changes nothing", async () => {
    await unchangedAfter(async (rawBody) => signedHeaders(rawBody, "someone-elses-webhook-token"));
  });

  it("a body that only differs in whitespace is not accepted under the original's signature", async () => {
    await unchangedAfter(async (rawBody) => signedHeaders(JSON.stringify(JSON.parse(rawBody), null, 2)));
  });

  it("the signature is checked before the body is parsed: unsigned garbage is 401, not 400 or 415", async () => {
    const res = await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", {
      rawBody: "{not json",
      headers: { "content-type": "text/plain" },
    });
    expectError(res, 401, "INVALID_SIGNATURE");
  });

  it("the signature covers the exact bytes: a byte-order mark is signed like any other byte", async () => {
    const account = await withApplicant();
    const checkId = onfido.completeCheck(account.applicantId, { result: "clear", dob: "1990-04-01" });
    const text = JSON.stringify(checkCompletedEvent(checkId));
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    const overText = await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", {
      rawBody: withBom,
      headers: await signedHeaders(text),
    });
    expectError(overText, 401, "INVALID_SIGNATURE");
    const accepted = await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", {
      rawBody: withBom,
      headers: await signedHeaders(withBom),
    });
    expect(accepted.status).toBe(200);
    expect(await storedKyc(account.id)).toEqual({ status: "VERIFIED", verifiedDob: "1990-04-01" });
  });

  it("a body over 64 KiB is refused before anything else", async () => {
    const rawBody = JSON.stringify({ pad: "x".repeat(70_000) });
    expectError(await deliver(rawBody), 413, "PAYLOAD_TOO_LARGE");
  });
});
