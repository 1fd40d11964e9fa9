// An end user's mails are in the language the account signed up in (docs/end-user-apps.md).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callSettled, expectError } from "../helpers/http";
import { uniqueEmail } from "../helpers/seed";

const mailsTo = async (email: string) =>
  (
    await env.DB.prepare('SELECT subject, text FROM dev_outbox WHERE "to" = ? ORDER BY id')
      .bind(email)
      .all<{ subject: string; text: string }>()
  ).results;

describe("mail language", () => {
  it("registers in German: the confirmation and a later reset mail are German", async () => {
    const email = uniqueEmail("de");
    const res = await call("POST", "/api/auth/register", {
      body: { email, password: "person-password-1", userType: "PERSONAL", locale: "de" },
    });
    expect(res.status).toBe(201);
    // forgot-password mails after its answer (waitUntil): wait for that work before reading the outbox.
    await callSettled("POST", "/api/auth/forgot-password", { body: { email } });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual(["Bestätigen Sie Ihre E-Mail-Adresse", "Setzen Sie Ihr Passwort zurück"]);
    expect(mails[0]!.text).toMatch(
      /^Bestätigen Sie Ihre E-Mail-Adresse für den Altersprüfungsdienst:\n\nhttps?:\/\/\S+\/account\/verify-email\?token=\S+\n\nDer Link/,
    );
  });

  it("without a locale the mails are English, and an unknown locale is refused with nothing created", async () => {
    const email = uniqueEmail("en");
    await call("POST", "/api/auth/register", { body: { email, password: "person-password-1", userType: "PERSONAL" } });
    expect((await mailsTo(email)).map((m) => m.subject)).toEqual(["Confirm your email address"]);
    const other = uniqueEmail("xx");
    const refused = await call("POST", "/api/auth/register", {
      body: { email: other, password: "person-password-1", userType: "PERSONAL", locale: "pt" },
    });
    expectError(refused, 422, "VALIDATION_FAILED");
    expect(refused.body.errors!.map((e) => e.path)).toContain("locale");
    expect(await mailsTo(other)).toEqual([]);
  });
});
