// The account's first passkey needs its current password (docs/passkeys.md; docs/api-contract.md §Passkeys): a stolen
// token alone can no longer enrol a passkey of its own and then approve, and lock out, in the owner's
// name. Both the options and the enrolment ask for it; a missing and a wrong one are the same 401; every
// password sent counts on the account's password counter. Later passkeys are confirmed by an existing one.
import { describe, expect, it } from "vitest";
import { passkeys } from "../../src/db/schema";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { call, expectError } from "../helpers/http";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { db, SEEDED_PASSWORD, seedEndUser } from "../helpers/seed";
import { eq } from "drizzle-orm";

const base = "/api/users/me/passkeys";
const options = (token: string, password?: string) =>
  call("POST", `${base}/registration-options`, { token, body: password === undefined ? undefined : { password } });

describe("the first passkey and the account's password", () => {
  it("options without the password, or with a wrong one, are 401 and store no challenge", async () => {
    const user = await seedEndUser("1990-01-01");
    expectError(await options(user.token), 401, "INVALID_CREDENTIALS");
    expectError(await options(user.token, "not the password"), 401, "INVALID_CREDENTIALS");
    const challenges = await db()
      .$client.prepare("SELECT count(*) AS n FROM passkey_challenges WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(challenges!.n).toBe(0);
    expect((await options(user.token, SEEDED_PASSWORD)).status).toBe(200);
  });

  it("an enrolment without the password is 401 even with a valid challenge, and enrols nothing", async () => {
    const user = await seedEndUser("1990-01-01");
    const device = await SoftwareAuthenticator.create();
    const opened = await options(user.token, SEEDED_PASSWORD);
    const res = await call("POST", base, { token: user.token, body: { credential: await device.register(opened.body.data) } });
    expectError(res, 401, "INVALID_CREDENTIALS");
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
  });

  it("with the password the first passkey enrols; a second needs no password but the first passkey's confirmation", async () => {
    const user = await seedEndUser("1990-01-01");
    await enrolPasskeyFor(user);
    // A second passkey: the options come without a password (a passkey exists), the enrolment asks the holder.
    const second = await options(user.token);
    expect(second.status).toBe(200);
    const res = await call("POST", base, {
      token: user.token,
      body: { credential: await (await SoftwareAuthenticator.create()).register(second.body.data) },
    });
    expectError(res, 403, "PASSKEY_REQUIRED");
  });
});
