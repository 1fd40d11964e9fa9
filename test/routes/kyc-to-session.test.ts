// Issue 7's acceptance across areas: an identity verified through Onfido's webhook answers a merchant
// session from the report's date of birth, not the one typed at applicant creation.
import { afterEach, describe, expect, it, vi } from "vitest";
import { callWith, checkCompletedEvent, onfidoEnv, signedHeaders, stubOnfido } from "../helpers/kyc";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { birthdayToday, complete, openSession } from "../helpers/sessions";

afterEach(() => vi.restoreAllMocks());

async function verifiedThroughOnfido(reportDob: string) {
  const onfido = stubOnfido();
  const account = await seedAccount({ userType: "PERSONAL" });
  const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", {
    token: account.token,
    body: { firstName: "Ada", lastName: "Lovelace", dob: "1980-01-01" },
  });
  const checkId = onfido.completeCheck(created.body.data.applicantId, { result: "clear", dob: reportDob });
  const rawBody = JSON.stringify(checkCompletedEvent(checkId));
  const delivered = await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", { rawBody, headers: await signedHeaders(rawBody) });
  expect(delivered.status).toBe(200);
  vi.restoreAllMocks();
  return account;
}

describe("Onfido-verified identity answers sessions", () => {
  it("APPROVED when the report's date of birth makes the person 18 today", async () => {
    const merchant = await seedMerchant();
    const user = await verifiedThroughOnfido(birthdayToday(18));
    const opened = await openSession(merchant.apiKey, 18);
    expect((await complete(user.token, opened.session_id, opened.nonce)).body.data.status).toBe("APPROVED");
  });

  it("DENIED when the report says a day short, whatever was typed", async () => {
    const merchant = await seedMerchant();
    const user = await verifiedThroughOnfido(birthdayToday(18, 1));
    const opened = await openSession(merchant.apiKey, 18);
    expect((await complete(user.token, opened.session_id, opened.nonce)).body.data.status).toBe("DENIED");
  });
});
