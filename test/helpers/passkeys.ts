// A passkey enrolled through the real routes, with the software authenticator: for other areas' tests.
import { expect } from "vitest";
import { SoftwareAuthenticator } from "./authenticator";
import { call } from "./http";

/** Enrols a passkey for the account and returns its id. */
export async function enrolPasskeyFor(account: { token: string }, authenticator?: SoftwareAuthenticator): Promise<string> {
  const device = authenticator ?? (await SoftwareAuthenticator.create());
  const options = await call("POST", "/api/users/me/passkeys/registration-options", { token: account.token });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const res = await call("POST", "/api/users/me/passkeys", { token: account.token, body: { credential: await device.register(options.body.data) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.passkey.id as string;
}
