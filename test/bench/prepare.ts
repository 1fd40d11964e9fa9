// What every measured request needs, made once through the public API: a verified business merchant
// with one key, and an end user whose KYC is verified. Two registrations, well inside the register limit.
import { apiClient, expectStatus } from "../tools/api-client";

export type Fixtures = { apiKey: string; signingSecret: string; userToken: string };

export async function prepare(baseUrl: string): Promise<Fixtures> {
  const api = apiClient(baseUrl);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = "bench password 1234";

  const merchantEmail = `bench-merchant-${unique}@example.com`;
  const merchant = await api("POST", "/api/auth/register", {
    body: { email: merchantEmail, password, userType: "BUSINESS", companyName: "Bench Ltd" },
  });
  expectStatus(merchant, 201);
  const outbox = await api("GET", `/api/dev/outbox?to=${encodeURIComponent(merchantEmail)}`);
  expectStatus(outbox, 200);
  const token = /[?&]token=([^\s&]+)/.exec(outbox.body.data.messages[0]?.text ?? "")?.[1];
  if (!token) throw new Error("no verification mail in the development outbox");
  expectStatus(await api("POST", "/api/auth/verify-email", { body: { token: decodeURIComponent(token) } }), 200);
  const key = await api("POST", "/api/keys", { token: merchant.body.data.token, body: { name: "bench" } });
  expectStatus(key, 201);

  const user = await api("POST", "/api/auth/register", {
    body: { email: `bench-user-${unique}@example.com`, password, userType: "PERSONAL" },
  });
  expectStatus(user, 201);
  const userToken = user.body.data.token as string;
  expectStatus(await api("POST", "/api/kyc/create-applicant", { token: userToken, body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" } }), 201);
  expectStatus(await api("POST", "/api/kyc/sandbox/complete", { token: userToken, body: { result: "clear" } }), 200);

  return { apiKey: key.body.data.apiKey, signingSecret: key.body.data.signingSecret, userToken };
}
