// One identity document verifies one live account (docs/limits.md): the sandbox simulates a reused document
// with `document_number`. The second account is refused with a clear reason, the first keeps working,
// deleting the first frees the document, and only a keyed fingerprint of the document is stored.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { kycRecords } from "../../src/db/schema";
import { sha256Hex } from "../../src/lib/crypto";
import { call, expectError } from "../helpers/http";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { complete, openSession } from "../helpers/sessions";
import { settingsOf } from "../../src/config/settings";
import { dbOfAccount } from "../helpers/shards";

const documentNumber = () => `DOC${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e6)}`.slice(0, 20);

async function verifyWithDocument(token: string, document_number: string) {
  const created = await call("POST", "/api/kyc/create-applicant", {
    token,
    body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" },
  });
  expect([201, 409]).toContain(created.status);
  const res = await call("POST", "/api/kyc/sandbox/complete", { token, body: { result: "clear", document_number } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { status: string; verifiedAt: string | null; reason?: string };
}

const personal = () => seedAccount({ userType: "PERSONAL" });

describe("one identity document, one live account", () => {
  it("a second account verifying with the same document is rejected with IDENTITY_ALREADY_VERIFIED; the first keeps working", async () => {
    const merchant = await seedMerchant();
    const number = documentNumber();
    const first = await personal();
    const second = await personal();
    expect(await verifyWithDocument(first.token, number)).toEqual({ status: "VERIFIED", verifiedAt: expect.any(String) });
    expect(await verifyWithDocument(second.token, number)).toEqual({
      status: "REJECTED",
      verifiedAt: null,
      reason: "IDENTITY_ALREADY_VERIFIED",
    });
    expect((await call("GET", "/api/kyc/status", { token: second.token })).body.data.reason).toBe("IDENTITY_ALREADY_VERIFIED");

    const session = await openSession(merchant.apiKey);
    expectError(await complete(second.token, session.session_id, session.nonce), 409, "IDENTITY_ALREADY_VERIFIED");
    const answered = await complete(first.token, session.session_id, session.nonce);
    expect(answered.status).toBe(200);
    expect(answered.body.data.status).toBe("APPROVED");
  });

  it("the same number spelled with spaces, dashes or lower case is the same document", async () => {
    const number = documentNumber();
    const first = await personal();
    await verifyWithDocument(first.token, number);
    const second = await personal();
    // The sandbox accepts A-Z0-9 only; the fingerprint's normalisation is checked through the domain below.
    const { identityFingerprint } = await import("../../src/domain/kyc/identity-fingerprint");
    const spelled = `${number.slice(0, 3).toLowerCase()}-${number.slice(3, 6)} ${number.slice(6)}`;
    expect(await identityFingerprint(settingsOf(env), { number: spelled, issuingCountry: "gbr" })).toBe(
      await identityFingerprint(settingsOf(env), { number, issuingCountry: "GBR" }),
    );
    expect((await verifyWithDocument(second.token, number)).status).toBe("REJECTED");
  });

  it("different documents verify different accounts (the ordinary case)", async () => {
    expect((await verifyWithDocument((await personal()).token, documentNumber())).status).toBe("VERIFIED");
    expect((await verifyWithDocument((await personal()).token, documentNumber())).status).toBe("VERIFIED");
  });

  it("deleting the first account frees the document: the second account then verifies with it", async () => {
    const number = documentNumber();
    const first = await personal();
    const second = await personal();
    await verifyWithDocument(first.token, number);
    expect((await verifyWithDocument(second.token, number)).status).toBe("REJECTED");
    expect((await call("DELETE", "/api/users/account", { token: first.token })).status).toBe(200);
    expect(await verifyWithDocument(second.token, number)).toEqual({ status: "VERIFIED", verifiedAt: expect.any(String) });
  });

  it("stores a keyed fingerprint only: not the number, and a different key gives a different fingerprint", async () => {
    const number = documentNumber();
    const account = await personal();
    await verifyWithDocument(account.token, number);
    const [row] = await (await dbOfAccount(account.id)).select().from(kycRecords).where(eq(kycRecords.userId, account.id));
    expect(row!.identityFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(number);
    expect(JSON.stringify(row)).not.toContain(number.toLowerCase());
    // The sandbox's document is a digest of the simulated number (so its stored check id does not carry the number).
    const read = { number: (await sha256Hex(number)).slice(0, 20).toUpperCase(), issuingCountry: "GBR" };
    const { identityFingerprint } = await import("../../src/domain/kyc/identity-fingerprint");
    expect(await identityFingerprint(settingsOf(env), read)).toBe(row!.identityFingerprint);
    expect(
      await identityFingerprint(settingsOf({ ...env, IDENTITY_FINGERPRINT_KEY: "another key entirely, 32 bytes long!" }), read),
    ).not.toBe(row!.identityFingerprint);
  });
});
