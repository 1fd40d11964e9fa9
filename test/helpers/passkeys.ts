// A passkey enrolled through the real routes, with the software authenticator: for other areas' tests.
import { expect } from "vitest";
import { SoftwareAuthenticator } from "./authenticator";
import { call } from "./http";
import { SEEDED_PASSWORD } from "./seed";

/**
 * Enrols a passkey for the account and returns its id. The account's password confirms a first passkey
 * (seeded and registered accounts of the helpers share one).
 */
export async function enrolPasskeyFor(
  account: { token: string; password?: string },
  authenticator?: SoftwareAuthenticator,
): Promise<string> {
  const device = authenticator ?? (await SoftwareAuthenticator.create());
  const password = account.password ?? SEEDED_PASSWORD;
  const options = await call("POST", "/api/users/me/passkeys/registration-options", { token: account.token, body: { password } });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const res = await call("POST", "/api/users/me/passkeys", {
    token: account.token,
    body: { credential: await device.register(options.body.data), password },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.passkey.id as string;
}
