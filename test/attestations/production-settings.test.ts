/// <reference types="vite/client" />
// Production and the attestation signer (src/config/problems.ts, src/domain/attestations/signer.ts): the
// committed development signer and every certificate with the public key of a committed root refuse to
// serve (503 MISCONFIGURED), and development's trust anchors, which list the development attestation
// IACA, refuse too; with none set, nothing is issued (the metadata and the routes answer 404) and
// production serves; a real signer of its own serves and issues; a key that is not its certificate's is
// 503 at first use.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { configurationProblems } from "../../src/config/settings";
import { productionEnv } from "../helpers/production-env";
import { documentSigner, makeIssuer, toPem } from "../wallet";
import testRootPem from "../wallet/test-iaca.pem?raw";
import signerFixture from "../fixtures/dev-attestation-signer.json";

async function fetchWith(appEnv: Env, path: string) {
  const res = await createApp().fetch(new Request(`https://avs.test${path}`), appEnv, createExecutionContext());
  return { status: res.status, text: await res.text() };
}

/** A signer of the operator's own: a fresh IACA (with a country name) and a document signer under it. */
async function freshSigner() {
  const root = await makeIssuer({ subject: "Operator IACA", ca: true });
  const signer = await documentSigner(root);
  const { key_ops: _ops, ext: _ext, ...jwk } = (await crypto.subtle.exportKey("jwk", signer.privateKey)) as JsonWebKey;
  return {
    ATTESTATION_SIGNING_KEY: JSON.stringify(jwk),
    ATTESTATION_CERTIFICATES: `${toPem(signer.certificate)}${toPem(root.certificate)}`,
  };
}

const problemSettings = (appEnv: Env) => configurationProblems(appEnv).map((problem) => problem.setting);

describe("production and the attestation signer", () => {
  it("refuses the committed development signer and its certificates", async () => {
    const appEnv = productionEnv({
      ATTESTATION_SIGNING_KEY: env.ATTESTATION_SIGNING_KEY,
      ATTESTATION_CERTIFICATES: env.ATTESTATION_CERTIFICATES,
    });
    expect(problemSettings(appEnv)).toEqual(expect.arrayContaining(["ATTESTATION_SIGNING_KEY", "ATTESTATION_CERTIFICATES"]));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect((await fetchWith(appEnv, "/api/health")).status).toBe(503);
    vi.restoreAllMocks();
  });

  it("refuses a fresh key with certificates holding a committed root's public key, however encoded", async () => {
    const fresh = await freshSigner();
    const signerPem = fresh.ATTESTATION_CERTIFICATES.split("-----END CERTIFICATE-----")[0] + "-----END CERTIFICATE-----\n";
    for (const root of [testRootPem, testRootPem.replace(/\n/g, "\r\n"), signerFixture.iaca]) {
      expect(problemSettings(productionEnv({ ...fresh, ATTESTATION_CERTIFICATES: `${signerPem}${root}` }))).toContain(
        "ATTESTATION_CERTIFICATES",
      );
    }
  });

  it("refuses one setting without the other", () => {
    const fresh = { ATTESTATION_SIGNING_KEY: "{}", ATTESTATION_CERTIFICATES: "x" };
    expect(problemSettings(productionEnv({ ATTESTATION_SIGNING_KEY: fresh.ATTESTATION_SIGNING_KEY }))).toContain(
      "ATTESTATION_CERTIFICATES",
    );
    expect(problemSettings(productionEnv({ ATTESTATION_CERTIFICATES: fresh.ATTESTATION_CERTIFICATES }))).toContain(
      "ATTESTATION_SIGNING_KEY",
    );
  });

  it("refuses development's trust anchors, which list the development attestation IACA, even without the test root", () => {
    expect(problemSettings(productionEnv({ DIGITAL_ID_TRUST_ANCHORS: signerFixture.iaca }))).toContain("DIGITAL_ID_TRUST_ANCHORS");
  });

  it("with none set, serves and issues nothing: every issuance route is 404", async () => {
    const appEnv = productionEnv();
    expect(problemSettings(appEnv)).toStrictEqual([]);
    expect((await fetchWith(appEnv, "/api/health")).status).toBe(200);
    for (const path of ["/.well-known/openid-credential-issuer", "/.well-known/oauth-authorization-server", "/api/attestations/iaca"]) {
      expect((await fetchWith(appEnv, path)).status, path).toBe(404);
    }
  });

  it("a signer of the operator's own serves and is published", async () => {
    const appEnv = productionEnv(await freshSigner());
    expect(problemSettings(appEnv)).toStrictEqual([]);
    const metadata = await fetchWith(appEnv, "/.well-known/openid-credential-issuer");
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.text)).toMatchObject({ credential_issuer: "https://age.merchant-verify.eu" });
    expect((await fetchWith(appEnv, "/api/attestations/iaca")).text).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it("a key that is not its certificate's is 503 MISCONFIGURED at first use", async () => {
    const one = await freshSigner();
    const other = await freshSigner();
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await fetchWith(
      productionEnv({ ATTESTATION_SIGNING_KEY: one.ATTESTATION_SIGNING_KEY, ATTESTATION_CERTIFICATES: other.ATTESTATION_CERTIFICATES }),
      "/.well-known/openid-credential-issuer",
    );
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({ error: "MISCONFIGURED" });
    vi.restoreAllMocks();
  });
});
