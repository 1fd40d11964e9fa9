// Production mail: enqueued by the request, sent by the mail queue consumer through Cloudflare Email
// Service with retries, and recorded (never its link) after the last one.
import { createExecutionContext, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { mailFailures } from "../../src/db/schema";
import { sha256Hex } from "../../src/lib/crypto";
import { MAIL_MAX_ATTEMPTS, MAIL_QUEUE_MAX_RETRIES, mailRetryDelaySeconds } from "../../src/mail/mail-consumer";
import { sendThroughEmailService } from "../../src/mail/email-service";
import { mailHtml } from "../../src/mail/html";
import type { MailMessage } from "../../src/mail/queue";
import { freshAddress, PASSWORD } from "../helpers/accounts";
import { runQueue } from "../helpers/callbacks";
import { buildRequest } from "../helpers/http";
import { productionEnv } from "../helpers/production-env";
import { db, uniqueEmail } from "../helpers/seed";

const LINK = "https://age.merchant-verify.eu/account/reset-password?token=secret-token-value";

const mailTo = (to: string): MailMessage => ({
  purpose: "reset-password",
  to,
  subject: "Reset your password",
  text: `Choose a new password here:\n\n${LINK}\n\nThe link works once.`,
});

/** A send_email binding that records what it was asked to send and fails as told. */
function standInMailer(failWith?: Error) {
  const sent: unknown[] = [];
  const binding = {
    send: vi.fn(async (message: unknown) => {
      if (failWith) throw failWith;
      sent.push(message);
      return { messageId: "<stand-in@merchant-verify.eu>" };
    }),
  };
  return { binding: binding as unknown as SendEmail, sent, calls: binding.send };
}

const runMail = (bodies: MailMessage[], bindings: Env, attempts = 1, queue = "mail") =>
  runQueue(queue, bodies as never[], bindings, { attempts });

const failuresFor = async (to: string) =>
  db()
    .select()
    .from(mailFailures)
    .where(eq(mailFailures.recipientHash, await sha256Hex(to.toLowerCase())));

afterEach(() => vi.restoreAllMocks());

describe("Email Service adapter", () => {
  it("sends through the local send_email binding in its structured form", async () => {
    const messageId = await sendThroughEmailService(env.MAILER, "no-reply@merchant-verify.eu", mailTo("someone@anywhere.example"));
    expect(messageId).toMatch(/@merchant-verify\.eu>?$/);
  });

  it("passes from, to, subject, the text and an HTML part with the link as a link", async () => {
    const mailer = standInMailer();
    await sendThroughEmailService(mailer.binding, "no-reply@merchant-verify.eu", mailTo("ada@customer.example"));
    expect(mailer.sent).toEqual([
      {
        from: "no-reply@merchant-verify.eu",
        to: "ada@customer.example",
        subject: "Reset your password",
        text: mailTo("x").text,
        html: expect.stringContaining(`<a href="${LINK}">${LINK}</a>`),
      },
    ]);
  });

  it("escapes the text in the HTML part", () => {
    const html = mailHtml('Hello <script>alert("x")</script> & bye\n\nhttps://a.example/?a=1&b=2');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; bye");
    expect(html).toContain('<a href="https://a.example/?a=1&amp;b=2">');
  });
});

describe("mail through the queue", () => {
  it("a production request enqueues its mail and does not wait for delivery; the outbox stays empty", async () => {
    const enqueued: unknown[] = [];
    const mailer = standInMailer();
    const appEnv = productionEnv({ MAIL: { send: async (body: unknown) => void enqueued.push(body) }, MAILER: mailer.binding });
    const email = uniqueEmail("prod");
    const res = await createApp().fetch(
      buildRequest("POST", "/api/auth/register", {
        body: { email, password: PASSWORD, firstName: "Ada", lastName: "Lovelace", userType: "PERSONAL" },
        headers: freshAddress(),
      }),
      appEnv,
      createExecutionContext(),
    );
    expect(res.status).toBe(201);
    expect(enqueued).toEqual([expect.objectContaining({ purpose: "verify-email", to: email, subject: "Confirm your email address" })]);
    expect((enqueued[0] as MailMessage).text).toContain("https://age.merchant-verify.eu/account/verify-email?token=");
    expect(mailer.calls).not.toHaveBeenCalled();
    const outbox = await env.DB.prepare('SELECT count(*) AS n FROM dev_outbox WHERE "to" = ?').bind(email).first<{ n: number }>();
    expect(outbox?.n).toBe(0);
  });

  it("the consumer sends each message from MAIL_FROM and acks it", async () => {
    const mailer = standInMailer();
    const { result } = await runMail(
      [mailTo("one@customer.example"), mailTo("two@customer.example")],
      productionEnv({ MAILER: mailer.binding }),
    );
    expect(result.explicitAcks.length).toBe(2);
    expect(result.retryMessages).toEqual([]);
    expect(mailer.sent.map((m) => (m as { to: string; from: string }).to).sort()).toEqual(["one@customer.example", "two@customer.example"]);
    expect(mailer.sent.every((m) => (m as { from: string }).from === "no-reply@merchant-verify.eu")).toBe(true);
  });

  it("a failed send is retried with back-off, and nothing is recorded yet", async () => {
    const to = uniqueEmail("retry");
    const mailer = standInMailer(new Error("temporary failure"));
    const first = await runMail([mailTo(to)], productionEnv({ MAILER: mailer.binding }), 1);
    expect(first.retried).toEqual([{ msgId: expect.any(String), delaySeconds: 30 }]);
    const later = await runMail([mailTo(to)], productionEnv({ MAILER: mailer.binding }), 3);
    expect(later.retried[0]?.delaySeconds).toBe(120);
    expect(await failuresFor(to)).toEqual([]);
    expect(mailRetryDelaySeconds(MAIL_MAX_ATTEMPTS - 1)).toBeLessThanOrEqual(15 * 60);
    expect(MAIL_QUEUE_MAX_RETRIES).toBeGreaterThan(MAIL_MAX_ATTEMPTS);
  });

  it("after the last retry the failure is recorded (recipient hash, purpose, error, time) and logged without the recipient: never the link, the address or its hash", async () => {
    const to = uniqueEmail("Fail");
    const errorLog = vi.spyOn(console, "error");
    const mailer = standInMailer(new Error(`recipient ${to} rejected; see ${LINK}`));
    const { result } = await runMail([mailTo(to)], productionEnv({ MAILER: mailer.binding }), MAIL_MAX_ATTEMPTS);
    expect(result.explicitAcks.length).toBe(1);
    expect(result.retryMessages).toEqual([]);
    const rows = await failuresFor(to);
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        recipientHash: await sha256Hex(to.toLowerCase()),
        purpose: "reset-password",
        error: "Error: recipient <address> rejected; see <url>",
        attempts: MAIL_MAX_ATTEMPTS,
        failedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    const logged = errorLog.mock.calls.flat().join("\n");
    expect(logged).toContain("mail not delivered after the last retry");
    expect(logged).not.toContain("secret-token-value");
    expect(logged.toLowerCase()).not.toContain(to.toLowerCase());
    // An unkeyed hash of an address in a log line is the address to anyone who can guess it.
    expect(logged).not.toContain(await sha256Hex(to.toLowerCase()));
  });

  it("a dead-lettered mail message is recorded as such", async () => {
    const to = uniqueEmail("dead");
    const { result } = await runMail([mailTo(to)], productionEnv(), 1, "mail-dead-letter");
    expect(result.explicitAcks.length).toBe(1);
    expect((await failuresFor(to)).map((r) => r.error)).toEqual(["dead_lettered"]);
  });

  it("staging's mail queue reaches the same consumer", async () => {
    const mailer = standInMailer();
    const { result } = await runMail([mailTo("staging@customer.example")], productionEnv({ MAILER: mailer.binding }), 1, "staging-mail");
    expect(result.explicitAcks.length).toBe(1);
    expect(mailer.sent.length).toBe(1);
  });

  it("a message without the expected shape is dropped, not retried for ever", async () => {
    const { result } = await runQueue("mail", [{ nonsense: true }] as never[], productionEnv());
    expect(result.explicitAcks.length).toBe(1);
  });
});
