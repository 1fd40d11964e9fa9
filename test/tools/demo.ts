// `npm run demo [-- --base-url http://localhost:8787]`: the whole flow through the public API, one line per
// step, against a running development server (`npm run dev`). Exit code 0 only when every step passed.
import { parseArgs } from "node:util";
import { createLocalJWKSet, jwtVerify } from "jose";
import { apiClient, expectStatus } from "./api-client";
import { startCallbackReceiver, type CallbackReceiver } from "./callback-receiver";
import { mask } from "./mask";
import { line, StepFailed, Steps } from "./steps";

const { values } = parseArgs({ options: { "base-url": { type: "string", default: "http://localhost:8787" } } });
const baseUrl = values["base-url"] ?? "http://localhost:8787";
const api = apiClient(baseUrl);

/** Development delivers a callback about a second after the resolution; ten is a generous bound. */
const CALLBACK_WAIT_MS = 10_000;
/** Nothing in the demo may hang a CI run. */
const WATCHDOG_MS = 120_000;

const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const PASSWORD = "demo password 1234";

/** The token in the `?token=` of the newest mail's action link. */
function tokenFromMail(text: string): string {
  const match = /[?&]token=([^\s&]+)/.exec(text);
  if (!match?.[1]) throw new Error("no ?token= link in the newest mail");
  return decodeURIComponent(match[1]);
}

async function main(steps: Steps, receivers: CallbackReceiver[]) {
  await steps.run("GET  /api/health", async () => {
    const res = await api("GET", "/api/health");
    expectStatus(res, 200);
    return line(`→ 200 status=${res.body.data.status} version=${res.body.data.version}`);
  });

  // The merchant: a business account with a verified email, which may create API keys.
  const merchantEmail = `demo-merchant-${unique}@example.com`;
  const merchantToken = await steps.run("POST /api/auth/register (merchant)", async () => {
    const res = await api("POST", "/api/auth/register", {
      body: {
        email: merchantEmail,
        password: PASSWORD,
        userType: "BUSINESS",
        companyName: "Demo Wines Ltd",
        firstName: "Dee",
        lastName: "Merchant",
      },
    });
    expectStatus(res, 201);
    const { user, token } = res.body.data;
    return {
      line: `→ 201 user=${user.id} type=${user.userType} emailVerified=${user.emailVerified} token=${mask(token)}`,
      value: token as string,
    };
  });

  const emailToken = await steps.run("GET  /api/dev/outbox (verification mail)", async () => {
    const res = await api("GET", `/api/dev/outbox?to=${encodeURIComponent(merchantEmail)}`);
    expectStatus(res, 200);
    const mail = res.body.data.messages[0];
    if (!mail) throw new Error(`→ 200 but no mail to ${merchantEmail}`);
    const token = tokenFromMail(mail.text);
    return { line: `→ 200 subject="${mail.subject}" token=${mask(token, 4)}`, value: token };
  });

  await steps.run("POST /api/auth/verify-email", async () => {
    const res = await api("POST", "/api/auth/verify-email", { body: { token: emailToken } });
    expectStatus(res, 200);
    if (res.body.data.user.emailVerified !== true) throw new Error("→ 200 but emailVerified is not true");
    return line(`→ 200 emailVerified=true`);
  });

  const key = await steps.run("POST /api/keys", async () => {
    const res = await api("POST", "/api/keys", { token: merchantToken, body: { name: "demo" } });
    expectStatus(res, 201);
    const { key, apiKey, signingSecret } = res.body.data;
    return {
      line: `→ 201 key=${key.id} prefix=${key.prefix} apiKey=${mask(apiKey)} signingSecret=${mask(signingSecret, 8)}`,
      value: { apiKey: apiKey as string, signingSecret: signingSecret as string },
    };
  });

  // The merchant's server: receives callbacks and checks them with the signing secret.
  const receiver = await steps.run("local callback receiver", async () => {
    const started = await startCallbackReceiver({ secret: key.signingSecret });
    receivers.push(started);
    return { line: `listening on ${started.url}/callbacks`, value: started };
  });

  const session = await steps.run("POST /api/age-verification/session", async () => {
    const res = await api("POST", "/api/age-verification/session", {
      apiKey: key.apiKey,
      body: { age_required: 18, callback_url: `${receiver.url}/callbacks`, reference: `demo-${unique}` },
      headers: { "idempotency-key": `demo-open-${unique}` },
    });
    expectStatus(res, 201);
    const data = res.body.data;
    if (typeof data.verification_url !== "string" || !data.verification_url.includes(data.session_id))
      throw new Error(`→ 201 but verification_url=${data.verification_url}`);
    return {
      line: `→ 201 session_id=${data.session_id} nonce=${mask(data.nonce, 4)} age_required=${data.age_required} livemode=${data.livemode} expires_at=${data.expires_at}`,
      value: { id: data.session_id as string, nonce: data.nonce as string, url: data.verification_url as string },
    };
  });
  console.log(`            verification_url=${session.url.replace(session.nonce, mask(session.nonce, 4))}`);
  console.log("            (the browser gets verification_url only; the API key stays on the server)");
  // The link is built from the server's APP_URL, never from the request's Host: a server started on another
  // port without its own APP_URL hands out links to the default one.
  if (new URL(session.url).origin !== new URL(baseUrl).origin) {
    console.log(
      `            (note: the server's APP_URL is ${new URL(session.url).origin}; start it with --var APP_URL:${new URL(baseUrl).origin} for links that open it)`,
    );
  }

  // The end user: a personal account whose date of birth is verified once (sandbox KYC).
  const userToken = await steps.run("POST /api/auth/register (end user)", async () => {
    const res = await api("POST", "/api/auth/register", {
      body: { email: `demo-user-${unique}@example.com`, password: PASSWORD, userType: "PERSONAL" },
    });
    expectStatus(res, 201);
    return {
      line: `→ 201 user=${res.body.data.user.id} type=PERSONAL token=${mask(res.body.data.token)}`,
      value: res.body.data.token as string,
    };
  });

  await steps.run("POST /api/kyc/create-applicant", async () => {
    const res = await api("POST", "/api/kyc/create-applicant", {
      token: userToken,
      body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" },
    });
    expectStatus(res, 201);
    // A sandbox applicant id carries the typed date of birth, so it is masked too.
    return line(`→ 201 applicantId=${mask(res.body.data.applicantId, 7)}`);
  });

  await steps.run("POST /api/kyc/sandbox/complete", async () => {
    const res = await api("POST", "/api/kyc/sandbox/complete", { token: userToken, body: { result: "clear" } });
    expectStatus(res, 200);
    if (res.body.data.status !== "VERIFIED") throw new Error(`→ 200 but status=${res.body.data.status}`);
    return line(`→ 200 status=VERIFIED verifiedAt=${res.body.data.verifiedAt}`);
  });

  await steps.run("GET  /api/age-verification/session/{id}/request?nonce=…", async () => {
    const res = await api("GET", `/api/age-verification/session/${session.id}/request?nonce=${encodeURIComponent(session.nonce)}`, {
      token: userToken,
    });
    expectStatus(res, 200);
    const data = res.body.data;
    if (data.status !== "PENDING") throw new Error(`→ 200 but status=${data.status}`);
    return line(`→ 200 merchant_name="${data.merchant_name}" age_required=${data.age_required} status=${data.status}`);
  });

  const completedAt = performance.now();
  const approved = await steps.run("POST /api/age-verification/session/{id}/complete", async () => {
    const res = await api("POST", `/api/age-verification/session/${session.id}/complete`, {
      token: userToken,
      body: { nonce: session.nonce, consent: true },
    });
    expectStatus(res, 200);
    const data = res.body.data;
    if (data.status !== "APPROVED" || data.above_age_required !== true) throw new Error(`→ 200 but status=${data.status}`);
    return {
      line: `→ 200 status=${data.status} above_age_required=${data.above_age_required} assurance=${data.assurance} receipt_id=${data.receipt_id}`,
      value: { receiptId: data.receipt_id as string, receipt: data.receipt as string },
    };
  });

  await steps.run("receipt verified against /.well-known/jwks.json (jose)", async () => {
    const res = await fetch(new URL("/.well-known/jwks.json", baseUrl));
    if (res.status !== 200) throw new Error(`GET /.well-known/jwks.json → ${res.status}`);
    const keys = createLocalJWKSet((await res.json()) as Parameters<typeof createLocalJWKSet>[0]);
    const { payload, protectedHeader } = await jwtVerify(approved.receipt, keys, { algorithms: ["EdDSA"] });
    if (payload.session_id !== session.id || payload.outcome !== "APPROVED" || payload.receipt_id !== approved.receiptId) {
      throw new Error(`signature valid, but session_id=${payload.session_id} outcome=${payload.outcome}`);
    }
    return line(
      `kid=${protectedHeader.kid} alg=${protectedHeader.alg} outcome=${payload.outcome} age_required=${payload.age_required} livemode=${payload.livemode} holder_binding=${payload.holder_binding}`,
    );
  });

  await steps.run("callback received and verified (standardwebhooks)", async () => {
    const callback = await receiver.waitFor((c) => !c.verified || c.event?.data.session_id === session.id, CALLBACK_WAIT_MS);
    if (!callback.event) throw new Error(`webhook-id=${callback.webhookId} signature did not verify: ${callback.reason}`);
    const { type, data } = callback.event;
    if (type !== "age_verification.session.approved") throw new Error(`verified, but type=${type}`);
    if (data.receipt_id !== approved.receiptId) throw new Error(`verified, but receipt_id=${data.receipt_id}, not ${approved.receiptId}`);
    const seconds = ((callback.receivedAt - completedAt) / 1000).toFixed(2);
    return line(
      `webhook-id=${callback.webhookId} signature=valid type=${type} receipt_id=${data.receipt_id} after ${seconds} s → answered ${callback.answered}`,
    );
  });

  await steps.run("GET  /api/age-verification/session/{id} (poll)", async () => {
    const res = await api("GET", `/api/age-verification/session/${session.id}`, { apiKey: key.apiKey });
    expectStatus(res, 200);
    const data = res.body.data;
    if (data.status !== "APPROVED" || data.receipt_id !== approved.receiptId)
      throw new Error(`→ 200 but status=${data.status} receipt_id=${data.receipt_id}`);
    return line(`→ 200 status=${data.status} receipt_id=${data.receipt_id} resolved_at=${data.resolved_at}`);
  });

  await steps.run("GET  /api/usage/sessions/{id}/callbacks (delivery log)", async () => {
    // The attempt is recorded just after the receiver answers, so allow it a moment to land.
    const deadline = Date.now() + 5_000;
    for (;;) {
      const res = await api("GET", `/api/usage/sessions/${session.id}/callbacks`, { token: merchantToken });
      expectStatus(res, 200);
      const event = res.body.data.events[0];
      if (event?.state === "delivered") {
        const attempt = event.attempts[event.attempts.length - 1];
        return line(
          `→ 200 webhook_id=${event.webhook_id} state=delivered attempts=${event.attempts.length} last=${attempt?.status_code} in ${attempt?.duration_ms} ms`,
        );
      }
      if (Date.now() > deadline) throw new Error(`→ 200 but state=${event?.state ?? "no event"} after 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  await steps.run("GET  /api/usage/summary", async () => {
    const res = await api("GET", "/api/usage/summary", { token: merchantToken });
    expectStatus(res, 200);
    const d = res.body.data;
    if (d.total !== 1 || d.approved !== 1) throw new Error(`→ 200 but total=${d.total} approved=${d.approved}, expected 1 and 1`);
    return line(`→ 200 total=${d.total} approved=${d.approved} denied=${d.denied} expired=${d.expired} pending=${d.pending}`);
  });
}

console.log(`Age-verification demo against ${baseUrl}\n`);
const watchdog = setTimeout(() => {
  console.log(`FAIL  the demo did not finish within ${WATCHDOG_MS / 1000} s`);
  process.exit(1);
}, WATCHDOG_MS);
const steps = new Steps();
const receivers: CallbackReceiver[] = [];
try {
  await main(steps, receivers);
  console.log(`\nAll ${steps.passed} steps passed.`);
  process.exitCode = 0;
} catch (error) {
  if (!(error instanceof StepFailed)) console.log(`FAIL  ${error instanceof Error ? error.message : String(error)}`);
  console.log(`\n${steps.passed} steps passed, then one failed.`);
  process.exitCode = 1;
} finally {
  clearTimeout(watchdog);
  await Promise.all(receivers.map((r) => r.close()));
}
