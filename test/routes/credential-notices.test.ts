// Changes an account's owner must be able to notice are mailed to the account's address (docs/passkeys.md,
// "Losing a device, or a stolen sign-in"): a password change, an email change asked for (to the old address), and a password
// reset, which also removes the account's passkeys, so that a stolen token that enrolled its own
// passkey cannot keep the owner out: the mailbox is the way back.
import { describe, expect, it } from "vitest";
import { freshAddress, mailedToken, PASSWORD, registerVerified } from "../helpers/accounts";
import { call, callSettled, expectError } from "../helpers/http";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { seedMerchant, uniqueEmail } from "../helpers/seed";
import { complete, openSession } from "../helpers/sessions";
import { verifyKycViaSandbox } from "../helpers/kyc";

type Mail = { subject: string; text: string };
const outbox = async (to: string): Promise<Mail[]> =>
  (await call("GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`)).body.data.messages;

describe("notices to the account's own address", () => {
  it("a password change is mailed to the account's address, with no link", async () => {
    const account = await registerVerified();
    const res = await call("POST", "/api/users/change-password", {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: "an entirely new one" },
    });
    expect(res.status).toBe(200);
    const [newest] = await outbox(account.email);
    expect(newest!.subject).toBe("Your password was changed");
    expect(newest!.text).not.toMatch(/https?:\/\//);
  });

  it("a refused password change mails nothing", async () => {
    const account = await registerVerified();
    const before = (await outbox(account.email)).length;
    expectError(
      await call("POST", "/api/users/change-password", {
        token: account.token,
        body: { currentPassword: "not the password", newPassword: "an entirely new one" },
      }),
      401,
      "INVALID_CREDENTIALS",
    );
    expect((await outbox(account.email)).length).toBe(before);
  });

  it("an email change mails the old address a notice, and the new address its confirmation link", async () => {
    const account = await registerVerified();
    const newEmail = uniqueEmail("moved");
    const res = await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail, password: PASSWORD } });
    expect(res.status).toBe(202);
    const [notice] = await outbox(account.email);
    expect(notice!.subject).toBe("A new email address was asked for your account");
    expect(notice!.text).not.toContain(newEmail);
    expect((await outbox(newEmail))[0]!.subject).toBe("Confirm your new email address");
  });

  it("a password reset removes the account's passkeys and says so; the owner approves with the password again", async () => {
    const registered = await registerVerified();
    const account = { ...registered, token: registered.token };
    await verifyKycViaSandbox(account.token, "1990-01-01");
    await enrolPasskeyFor(account);
    const merchant = await seedMerchant();
    const session = await openSession(merchant.apiKey);
    // With a passkey, a password approval is refused (the passkey is required).
    expectError(await complete(account.token, session.session_id, session.nonce), 403, "PASSKEY_REQUIRED");

    await callSettled("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() });
    const token = await mailedToken(account.email);
    expect(
      (await call("POST", "/api/auth/reset-password", { body: { token, newPassword: "a brand new secret" }, headers: freshAddress() }))
        .status,
    ).toBe(200);

    const [notice] = await outbox(account.email);
    expect(notice!.subject).toBe("Your passkeys were removed");
    const login = await call("POST", "/api/auth/login", {
      body: { email: account.email, password: "a brand new secret" },
      headers: freshAddress(),
    });
    expect(login.status).toBe(200);
    const fresh = login.body.data.token as string;
    expect((await call("GET", "/api/users/me/passkeys", { token: fresh })).body.data.passkeys).toEqual([]);
    const approved = await complete(fresh, session.session_id, session.nonce);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.holder_binding).toBe("PASSWORD");
  });

  it("a reset of an account without passkeys sends no removal notice", async () => {
    const account = await registerVerified();
    await callSettled("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() });
    const token = await mailedToken(account.email);
    expect(
      (await call("POST", "/api/auth/reset-password", { body: { token, newPassword: "a brand new secret" }, headers: freshAddress() }))
        .status,
    ).toBe(200);
    expect((await outbox(account.email)).map((m) => m.subject)).not.toContain("Your passkeys were removed");
  });

  it("an account's notices come in its language", async () => {
    const account = await registerVerified({ locale: "de" });
    expect(
      (
        await call("POST", "/api/users/change-password", {
          token: account.token,
          body: { currentPassword: PASSWORD, newPassword: "ein ganz neues Passwort" },
        })
      ).status,
    ).toBe(200);
    expect((await outbox(account.email))[0]!.subject).toBe("Ihr Passwort wurde geändert");
  });
});
