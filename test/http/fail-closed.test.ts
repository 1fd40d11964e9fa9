/// <reference types="vite/client" />
// Production refuses to serve (503 MISCONFIGURED) for each rule of src/config/problems.ts: the body says
// only that, to anyone asking; the operator's log line names the setting and its rule, never its value.
// A complete production configuration serves.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { DEVELOPMENT_VALUES } from "../../src/config/problems";
import { configurationProblems } from "../../src/config/settings";
import { productionEnv, productionSecrets } from "../helpers/production-env";
import testRootPem from "../wallet/test-iaca.pem?raw";
import vectorsText from "../fixtures/digital-id-vectors.json?raw";

/** A real issuer root from a published test vector (Multipaz): not the committed test root. */
const otherRootPem = (JSON.parse(vectorsText) as { multipaz_device_response: { iacaPem: string } }).multipaz_device_response.iacaPem;

async function health(appEnv: Env) {
  const res = await createApp().fetch(new Request("https://avs.test/api/health"), appEnv, createExecutionContext());
  return { status: res.status, text: await res.text() };
}

async function expectRefused(appEnv: Env, setting: string, value?: unknown) {
  const errors = vi.spyOn(console, "error");
  const res = await health(appEnv);
  expect(res.status, res.text).toBe(503);
  const body = JSON.parse(res.text) as { error: string; message: string; errors: { path: string; message: string }[] };
  expect(body).toMatchObject({ error: "MISCONFIGURED", message: "The service is not configured to serve requests.", errors: [] });
  // An anonymous caller learns nothing about the configuration.
  expect(res.text).not.toContain(setting);
  // The operator's log line names the setting and its rule.
  const line = errors.mock.calls.map((call) => String(call[0])).find((text) => text.includes("misconfigured: refusing to serve"));
  expect(line, "the refusal is logged").toBeDefined();
  const problems = (JSON.parse(line!) as { problems: { setting: string; problem: string }[] }).problems;
  expect(problems.map((p) => p.setting)).toContain(setting);
  if (typeof value === "string" && value.length > 0) {
    expect(res.text).not.toContain(value);
    expect(line).not.toContain(value);
  }
  errors.mockRestore();
}

const short = btoa("sixteen-bytes-ok");

describe("fail closed in production", () => {
  // D1 shards (docs/operations.md): how many, and which take new accounts, must be a setting that holds.
  for (const [name, overrides] of [
    ["D1_SHARDS missing", { D1_SHARDS: undefined }],
    ["D1_SHARDS not a positive whole number", { D1_SHARDS: "two" }],
    ["D1_SHARDS zero", { D1_SHARDS: "0" }],
    ["D1_SHARDS naming a shard with no binding", { D1_SHARDS: "3" }],
  ] as const) {
    it(`${name} refuses`, async () => {
      await expectRefused(productionEnv(overrides), "D1_SHARDS");
    });
  }

  it("D1_SHARDS with a binding removed refuses", async () => {
    await expectRefused(productionEnv({ DB_1: undefined }), "D1_SHARDS");
  });

  for (const value of ["2", "0,0", "x", "1,"]) {
    it(`NEW_ACCOUNT_SHARDS=${JSON.stringify(value)} (a shard not bound, twice, or not a number) refuses`, async () => {
      await expectRefused(productionEnv({ NEW_ACCOUNT_SHARDS: value }), "NEW_ACCOUNT_SHARDS");
    });
  }

  it("NEW_ACCOUNT_SHARDS naming bound shards serves", async () => {
    expect((await health(productionEnv({ NEW_ACCOUNT_SHARDS: "1" }))).status).toBe(200);
    expect((await health(productionEnv({ NEW_ACCOUNT_SHARDS: "0, 1" }))).status).toBe(200);
  });

  it("a complete production configuration serves", async () => {
    expect((await health(productionEnv())).status).toBe(200);
  });

  it("the development configuration serves", async () => {
    expect((await health(env)).status).toBe(200);
  });

  it("the development trust anchors refuse, however wrapped; unset, neither 1.2.0 way is offered and production serves", async () => {
    // The committed development value itself (wrangler.toml's [vars], as the test pool reads it).
    await expectRefused(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: env.DIGITAL_ID_TRUST_ANCHORS }), "DIGITAL_ID_TRUST_ANCHORS");
    await expectRefused(
      productionEnv({ DIGITAL_ID_TRUST_ANCHORS: `${env.DIGITAL_ID_TRUST_ANCHORS}`.replace(/\n/g, "\r\n") }),
      "DIGITAL_ID_TRUST_ANCHORS",
    );
    await expectRefused(productionEnv({ AGE_TOKEN_KEYS: env.AGE_TOKEN_KEYS }), "AGE_TOKEN_KEYS");
    expect((await health(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: undefined, AGE_TOKEN_KEYS: undefined }))).status).toBe(200);
  });

  it("PROVIDER=sandbox refuses", async () => {
    await expectRefused(productionEnv({ PROVIDER: "sandbox" }), "PROVIDER");
  });

  it("an unknown PROVIDER refuses", async () => {
    await expectRefused(productionEnv({ PROVIDER: "onfido-eu" }), "PROVIDER");
  });

  for (const name of ["JWT_SECRET", "PASSWORD_PEPPER", "SECRETS_KEY"]) {
    it(`a missing ${name} refuses`, async () => {
      await expectRefused(productionEnv({ [name]: undefined }), name);
      await expectRefused(productionEnv({ [name]: "" }), name);
    });

    it(`${name} set to a committed development value refuses, without echoing it`, async () => {
      const devValue = (env as unknown as Record<string, string>)[name]!;
      expect(DEVELOPMENT_VALUES).toContain(devValue);
      await expectRefused(productionEnv({ [name]: devValue }), name, devValue);
    });

    it(`${name} shorter than 32 bytes refuses, without echoing it`, async () => {
      await expectRefused(productionEnv({ [name]: short }), name, short);
      await expectRefused(productionEnv({ [name]: "not base64 at all!" }), name);
    });
  }

  it("SECRETS_KEY must decode to exactly 32 bytes (an AES-256 key), the HMAC secrets to at least 32", async () => {
    const longer = btoa("x".repeat(48));
    await expectRefused(productionEnv({ SECRETS_KEY: longer }), "SECRETS_KEY");
    expect((await health(productionEnv({ JWT_SECRET: longer, PASSWORD_PEPPER: longer }))).status).toBe(200);
  });

  it("a previous secret kept for a rotation is held to the same rules", async () => {
    await expectRefused(productionEnv({ SECRETS_KEY_PREVIOUS: short }), "SECRETS_KEY_PREVIOUS");
    await expectRefused(productionEnv({ PASSWORD_PEPPER_PREVIOUS: DEVELOPMENT_VALUES[1] }), "PASSWORD_PEPPER_PREVIOUS");
    // JWT_SECRET_PREVIOUS needs the time of the rotation, which bounds how long it is accepted.
    const previous = btoa("p".repeat(32));
    await expectRefused(productionEnv({ JWT_SECRET_PREVIOUS: previous }), "JWT_SECRET_ROTATED_AT", previous);
    const ok = await health(productionEnv({ JWT_SECRET_PREVIOUS: previous, JWT_SECRET_ROTATED_AT: "2026-11-01T00:00:00Z" }));
    expect(ok.status).toBe(200);
  });

  for (const url of [
    "https://age-verification.example.com",
    "https://example.org",
    "https://avs.test",
    "https://localhost",
    "https://api.invalid",
  ]) {
    it(`APP_URL on a placeholder domain refuses (${url})`, async () => {
      await expectRefused(productionEnv({ APP_URL: url }), "APP_URL");
    });
  }

  it("APP_URL that is not https refuses", async () => {
    await expectRefused(productionEnv({ APP_URL: "http://age.merchant-verify.eu" }), "APP_URL");
    await expectRefused(productionEnv({ APP_URL: "age.merchant-verify.eu" }), "APP_URL");
    await expectRefused(productionEnv({ APP_URL: undefined }), "APP_URL");
  });

  for (const from of ["no-reply@example.com", "no-reply@mail.example.net", "no-reply@localhost", "not-an-address"]) {
    it(`MAIL_FROM that is a placeholder or no address refuses (${from})`, async () => {
      await expectRefused(productionEnv({ MAIL_FROM: from }), "MAIL_FROM");
    });
  }

  for (const name of ["ONFIDO_API_TOKEN", "ONFIDO_WEBHOOK_TOKEN"]) {
    it(`PROVIDER=onfido without ${name} refuses, and with its development value too`, async () => {
      await expectRefused(productionEnv({ [name]: undefined }), name);
      const devValue = (env as unknown as Record<string, string>)[name]!;
      await expectRefused(productionEnv({ [name]: devValue }), name, devValue);
    });
  }

  it("PROVIDER=onfido without an https ONFIDO_API_URL refuses", async () => {
    await expectRefused(productionEnv({ ONFIDO_API_URL: undefined }), "ONFIDO_API_URL");
    await expectRefused(productionEnv({ ONFIDO_API_URL: "http://api.eu.onfido.com/v3.6" }), "ONFIDO_API_URL");
  });

  for (const value of ["Production", "prod", "staging", "", undefined]) {
    it(`ENVIRONMENT=${JSON.stringify(value)} refuses instead of falling back to development`, async () => {
      await expectRefused({ ...env, ENVIRONMENT: value } as unknown as Env, "ENVIRONMENT");
    });
  }

  it("RECEIPT_SIGNING_KEY must be an Ed25519 private JWK with a kid, and not the development key", async () => {
    const devKey = (env as unknown as Record<string, string>).RECEIPT_SIGNING_KEY!;
    expect(DEVELOPMENT_VALUES).toContain(devKey);
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY: undefined }), "RECEIPT_SIGNING_KEY");
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY: devKey }), "RECEIPT_SIGNING_KEY", devKey);
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY: "not json" }), "RECEIPT_SIGNING_KEY");
    const current = JSON.parse(productionSecrets.RECEIPT_SIGNING_KEY) as Record<string, string>;
    const { d: _d, ...publicOnly } = current;
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY: JSON.stringify(publicOnly) }), "RECEIPT_SIGNING_KEY");
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY: JSON.stringify({ ...current, kid: undefined }) }), "RECEIPT_SIGNING_KEY");
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY: JSON.stringify({ ...current, crv: "P-256" }) }), "RECEIPT_SIGNING_KEY");
    // The previous key (published during a rotation) may be public only, but must be a key.
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY_PREVIOUS: "{}" }), "RECEIPT_SIGNING_KEY_PREVIOUS");
    await expectRefused(productionEnv({ RECEIPT_SIGNING_KEY_PREVIOUS: devKey }), "RECEIPT_SIGNING_KEY_PREVIOUS", devKey);
    expect((await health(productionEnv({ RECEIPT_SIGNING_KEY_PREVIOUS: JSON.stringify({ ...publicOnly, kid: "old-1" }) }))).status).toBe(
      200,
    );
  });

  it("a malformed retention or threshold setting refuses", async () => {
    await expectRefused(productionEnv({ SESSION_LOG_RETENTION_DAYS: "400 days" }), "SESSION_LOG_RETENTION_DAYS");
    // Optional (unset: 30 days), but never a value that does not say how long.
    await expectRefused(productionEnv({ AGE_TOKEN_RETIREMENT_DAYS: "0" }), "AGE_TOKEN_RETIREMENT_DAYS");
    await expectRefused(productionEnv({ AGE_TOKEN_RETIREMENT_DAYS: "thirty" }), "AGE_TOKEN_RETIREMENT_DAYS");
    expect((await health(productionEnv({ AGE_TOKEN_RETIREMENT_DAYS: "45" }))).status).toBe(200);
    await expectRefused(productionEnv({ CALLBACK_STALL_SECONDS: "0" }), "CALLBACK_STALL_SECONDS");
  });

  it("IDENTITY_FINGERPRINT_KEY is required, and not the committed development value", async () => {
    await expectRefused(productionEnv({ IDENTITY_FINGERPRINT_KEY: undefined }), "IDENTITY_FINGERPRINT_KEY");
    await expectRefused(productionEnv({ IDENTITY_FINGERPRINT_KEY: env.IDENTITY_FINGERPRINT_KEY }), "IDENTITY_FINGERPRINT_KEY");
    await expectRefused(productionEnv({ IDENTITY_FINGERPRINT_KEY: "short" }), "IDENTITY_FINGERPRINT_KEY");
  });

  it("a malformed per-account limit refuses instead of silently falling back", async () => {
    await expectRefused(productionEnv({ COMPLETIONS_PER_DAY: "ten" }), "COMPLETIONS_PER_DAY");
    await expectRefused(productionEnv({ KYC_CHECKS_PER_DAY: "-1" }), "KYC_CHECKS_PER_DAY");
  });

  it("DIGITAL_ID_TRUST_ANCHORS that includes the committed test root refuses, alone or among other anchors", async () => {
    await expectRefused(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: testRootPem }), "DIGITAL_ID_TRUST_ANCHORS");
    await expectRefused(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: `${otherRootPem}\n${testRootPem}` }), "DIGITAL_ID_TRUST_ANCHORS");
    // The operator is told which root and why: the test root's own rule, not the development attestation
    // IACA's, which also compares keys and would refuse it under another root's name.
    const errors = vi.spyOn(console, "error");
    await health(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: testRootPem }));
    const line = errors.mock.calls.map((call) => String(call[0])).find((text) => text.includes("misconfigured: refusing to serve"))!;
    const problems = (JSON.parse(line) as { problems: { setting: string; problem: string }[] }).problems;
    expect(problems.find((p) => p.setting === "DIGITAL_ID_TRUST_ANCHORS")?.problem).toBe(
      "includes the committed test root (test/wallet/test-iaca.pem), whose private key is public",
    );
    errors.mockRestore();
  });

  it("DIGITAL_ID_TRUST_ANCHORS with the test root's signature changed still refuses: its key is the same, and an anchor's own signature is never checked", async () => {
    const der = Uint8Array.from(atob(testRootPem.replace(/-----[A-Z ]+-----|\s/g, "")), (c) => c.charCodeAt(0));
    der[der.length - 1]! ^= 0x01;
    const flipped = `-----BEGIN CERTIFICATE-----\n${btoa(String.fromCharCode(...der))}\n-----END CERTIFICATE-----\n`;
    await expectRefused(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: flipped }), "DIGITAL_ID_TRUST_ANCHORS");
  });

  it("DIGITAL_ID_TRUST_ANCHORS that is not PEM certificates refuses", async () => {
    await expectRefused(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: "not a certificate" }), "DIGITAL_ID_TRUST_ANCHORS");
    await expectRefused(
      productionEnv({ DIGITAL_ID_TRUST_ANCHORS: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" }),
      "DIGITAL_ID_TRUST_ANCHORS",
    );
  });

  it("DIGITAL_ID_TRUST_ANCHORS with real anchors serves, and with none production serves without the way", async () => {
    expect((await health(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: otherRootPem }))).status).toBe(200);
    expect((await health(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: undefined }))).status).toBe(200);
  });

  it("lists every broken rule at once, so an operator fixes them in one deploy", async () => {
    const errors = vi.spyOn(console, "error");
    expect((await health(productionEnv({ PROVIDER: "sandbox", APP_URL: "http://x.example.com", JWT_SECRET: undefined }))).status).toBe(503);
    const line = errors.mock.calls.map((call) => String(call[0])).find((text) => text.includes("misconfigured: refusing to serve"))!;
    const problems = (JSON.parse(line) as { problems: { setting: string }[] }).problems;
    expect(problems.map((p) => p.setting).sort()).toEqual(["APP_URL", "JWT_SECRET", "PROVIDER"]);
    errors.mockRestore();
  });

  it("checks a configuration once per isolate, not per request", async () => {
    // The bindings object lives as long as the isolate: counted at the setting only the check reads on
    // /api/health, three requests read it during the first alone.
    let reads = 0;
    const appEnv = new Proxy(productionEnv(), {
      get(target, name, receiver) {
        if (name === "COMPLETIONS_PER_DAY") reads++;
        return Reflect.get(target, name, receiver);
      },
    });
    expect((await health(appEnv)).status).toBe(200);
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect((await health(appEnv)).status).toBe(200);
    expect((await health(appEnv)).status).toBe(200);
    expect(reads).toBe(afterFirst);
    // A broken configuration is remembered as broken, request after request.
    const broken = productionEnv({ PROVIDER: "sandbox" });
    expect(configurationProblems(broken)).toBe(configurationProblems(broken));
    await expectRefused(broken, "PROVIDER");
    await expectRefused(broken, "PROVIDER");
  });
});
