// Accounts through the real endpoints: register, read the mailed token from the dev outbox, verify.
import { expect } from "vitest";
import { call } from "./http";
import { uniqueEmail } from "./seed";

let address = 0;
/** A distinct client address per call, so the per-address rate limit does not couple unrelated tests. */
export const freshAddress = () => ({ "cf-connecting-ip": `198.51.100.${(++address % 250) + 1}-${Date.now()}` });

export const PASSWORD = "correct horse battery";

export async function register(overrides: Record<string, unknown> = {}) {
  const body = {
    email: uniqueEmail("reg"),
    password: PASSWORD,
    firstName: "Ada",
    lastName: "Lovelace",
    userType: "PERSONAL",
    ...overrides,
  };
  const res = await call("POST", "/api/auth/register", { body, headers: freshAddress() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { email: body.email as string, password: body.password as string, token: res.body.data.token as string, user: res.body.data.user };
}

/** The token of the newest mail sent to the address, taken from its action link. */
export async function mailedToken(to: string): Promise<string> {
  const res = await call("GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  const text: string = res.body.data.messages[0]?.text ?? "";
  const match = /[?&]token=([^\s&]+)/.exec(text);
  if (!match) throw new Error(`no token in the newest mail to ${to}`);
  return decodeURIComponent(match[1]!);
}

export async function registerVerified(overrides: Record<string, unknown> = {}) {
  const account = await register(overrides);
  const res = await call("POST", "/api/auth/verify-email", { body: { token: await mailedToken(account.email) } });
  expect(res.status).toBe(200);
  return account;
}

export const registerBusiness = (overrides: Record<string, unknown> = {}) =>
  registerVerified({ userType: "BUSINESS", companyName: "Acme Wines Ltd", ...overrides });
