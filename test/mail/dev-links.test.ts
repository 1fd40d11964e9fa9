// Mail links in development follow the address the server runs on; in production only APP_URL counts.
import { createExecutionContext, env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import type { MailMessage } from "../../src/mail/queue";
import { uniqueEmail } from "../helpers/seed";
import { productionEnv } from "../helpers/production-env";

const register = (email: string) => ({ email, password: "person-password-1", userType: "PERSONAL" });

describe("mail links and the server's own address", () => {
  it("in development, point at the origin the request reached (another port)", async () => {
    const email = uniqueEmail("port");
    const res = await SELF.fetch("http://127.0.0.1:8799/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(register(email)),
    });
    expect(res.status).toBe(201);
    const row = await env.DB.prepare('SELECT text FROM dev_outbox WHERE "to" = ?').bind(email).first<{ text: string }>();
    expect(row?.text).toContain("http://127.0.0.1:8799/account/verify-email?token=");
    expect(env.APP_URL).not.toContain("8799");
  });

  it("in production, come from APP_URL whatever Host the request names", async () => {
    const enqueued: MailMessage[] = [];
    const appEnv = productionEnv({ MAIL: { send: async (body: MailMessage) => void enqueued.push(body) } });
    const email = uniqueEmail("host");
    const res = await createApp().fetch(
      new Request("https://attacker.example/api/auth/register", {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": "198.51.100.77" },
        body: JSON.stringify(register(email)),
      }),
      appEnv,
      createExecutionContext(),
    );
    expect(res.status).toBe(201);
    expect(enqueued[0]!.text).toContain("https://age.merchant-verify.eu/account/verify-email?token=");
    expect(enqueued[0]!.text).not.toContain("attacker.example");
  });
});
