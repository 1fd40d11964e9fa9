// What every measured request needs, made once through the public API: a verified business merchant
// with one key, and an end user whose KYC is verified. Two registrations, well inside the register limit.
// With `shard`, the merchant is registered again until its account lands on that D1 shard (docs/operations.md: a
// new account goes to a random shard; its id names it, read with the service's own src/lib/shard-tag.ts).
import { apiClient, expectStatus } from "../tools/api-client";
import { shardOfValue } from "../../src/lib/shard-tag";

export type Fixtures = { apiKey: string; signingSecret: string; userToken: string; shard?: number };

/** Registrations tried to land a merchant on a given shard (each lands on one of N at random). */
const SHARD_TRIES = 40;

export async function prepare(baseUrl: string, shard?: number): Promise<Fixtures> {
  const api = apiClient(baseUrl);
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = "bench password 1234";

  let merchantEmail = "";
  let merchant: Awaited<ReturnType<typeof api>> | undefined;
  for (let attempt = 0; attempt < SHARD_TRIES; attempt++) {
    merchantEmail = `bench-merchant-${unique}-${attempt}@example.com`;
    merchant = await api("POST", "/api/auth/register", {
      body: { email: merchantEmail, password, userType: "BUSINESS", companyName: "Bench Ltd" },
      headers: { "cf-connecting-ip": `192.0.2.${attempt + 1}` },
    });
    expectStatus(merchant, 201);
    if (shard === undefined || (await shardOfValue(merchant.body.data.user.id as string, 24)) === shard) break;
    if (attempt === SHARD_TRIES - 1) throw new Error(`no merchant landed on shard ${shard} in ${SHARD_TRIES} registrations`);
  }
  if (!merchant) throw new Error("no merchant registered");
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
  expectStatus(
    await api("POST", "/api/kyc/create-applicant", {
      token: userToken,
      body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" },
    }),
    201,
  );
  expectStatus(await api("POST", "/api/kyc/sandbox/complete", { token: userToken, body: { result: "clear" } }), 200);

  return { apiKey: key.body.data.apiKey, signingSecret: key.body.data.signingSecret, userToken, ...(shard === undefined ? {} : { shard }) };
}

/** The floor's one key and account (POST /floor/seed), in the shape the scenarios take. */
export async function seedFloor(floorUrl: string): Promise<Fixtures> {
  const seeded = await apiClient(floorUrl)("POST", "/floor/seed", {});
  expectStatus(seeded, 201);
  return { apiKey: seeded.body.apiKey, signingSecret: "", userToken: "floor" };
}
