// The proof-of-age attestation as an independent mdoc verifier reads it (@auth0/mdl, in Node: its
// CommonJS dependency tsyringe does not load in workerd, where test/attestations issues through the
// routes). The development document signer issues attestations exactly as POST /credential does
// (checkProofs, then issueProofOfAge); the test wallet presents each with the proof's private key; the
// verifier checks the MSO signature, the chain to the IACA root (the second certificate of
// ATTESTATION_CERTIFICATES, what GET /api/attestations/iaca serves), the digests, the device signature by
// the proof's key and the validity window. The document signer's extended key usage is read with
// @peculiar/x509.
import "reflect-metadata";
import { Verifier } from "@auth0/mdl";
import * as x509 from "@peculiar/x509";
import { describe, expect, it } from "vitest";
import signerFixture from "../fixtures/dev-attestation-signer.json";
import type { Settings } from "../../src/config/settings";
import { attestationSigner, pemBlocks } from "../../src/domain/attestations";
import { issueProofOfAge } from "../../src/domain/attestations/proof-of-age-mdoc";
import { checkProofs } from "../../src/domain/attestations/proofs";
import { EU_AGE, type Mdoc } from "../wallet";
import { deviceResponse } from "../wallet/mdoc";
import { base64url, decode, encode, fromBase64url, tag24, type Tag } from "../wallet/cbor";

const ISSUER = "https://age.merchant-verify.eu";
const settings = { attestationSigningKey: signerFixture.signingKey, attestationCertificates: signerFixture.certificates } as Settings;
const iacaPem = new x509.X509Certificate(pemBlocks(signerFixture.certificates)[1]!).toString("pem");
const json = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

async function walletProof(pair: CryptoKeyPair): Promise<string> {
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const input = `${json({ typ: "openid4vci-proof+jwt", alg: "ES256", jwk: { kty, crv, x, y } })}.${json({ aud: ISSUER, iat: Math.floor(Date.now() / 1000), nonce: "n" })}`;
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, new TextEncoder().encode(input)),
  );
  return `${input}.${base64url(signature)}`;
}

function asMdoc(credential: string, deviceKey: CryptoKeyPair): Mdoc {
  const issuerSigned = decode(fromBase64url(credential)) as Map<string, any>;
  const items = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const item of issuerSigned.get("nameSpaces").get(EU_AGE.namespace) as Tag[]) {
    const bytes = new Uint8Array(item.value as Uint8Array);
    items.set((decode(bytes) as Map<string, unknown>).get("elementIdentifier") as string, bytes);
  }
  return { ...EU_AGE, items, issuerAuth: issuerSigned.get("issuerAuth"), deviceKey };
}

describe("an issued proof-of-age attestation, read by @auth0/mdl", () => {
  it("passes every check of an independent verifier, bound to its proof's key, under the IACA root", async () => {
    const signer = (await attestationSigner(settings))!;
    const pairs = await Promise.all(
      [1, 2].map(
        () => crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]) as Promise<CryptoKeyPair>,
      ),
    );
    const proofs = await checkProofs(await Promise.all(pairs.map(walletProof)), ISSUER, Date.now());
    for (const [index, proof] of proofs.entries()) {
      const mdoc = asMdoc(await issueProofOfAge(signer, proof.deviceKey, Date.now()), pairs[index]!);
      const transcript = [null, null, ["test", new Uint8Array([index])]];
      const failed: string[] = [];
      const passed: string[] = [];
      const verified = await new Verifier([iacaPem]).verify(await deviceResponse(mdoc, transcript, { disclose: ["age_over_18"] }), {
        encodedSessionTranscript: encode(tag24(transcript)),
        onCheck: (check) =>
          (check.status === "FAILED" ? failed : passed).push(
            `${check.check}${check.status === "FAILED" ? ` (${check.reason ?? ""})` : ""}`,
          ),
      });
      expect(failed).toStrictEqual([]);
      expect(passed).toEqual(
        expect.arrayContaining([
          "Issuer certificate must be valid",
          "Issuer signature must be valid",
          "Device signature must be valid",
          "The MSO must be valid at the time of verification",
        ]),
      );
      expect(passed.some((check) => /calculated digest for eu\.europa\.ec\.av\.1\/age_over_18/.test(check))).toBe(true);
      const document = verified.documents[0]!;
      expect(document.docType).toBe("eu.europa.ec.av.1");
      expect(document.getIssuerNameSpace("eu.europa.ec.av.1")).toStrictEqual({ age_over_18: true });
      const signerCertificate = new x509.X509Certificate((mdoc.issuerAuth as [unknown, Map<number, Uint8Array>])[1].get(33)!);
      expect([...(signerCertificate.getExtension(x509.ExtendedKeyUsageExtension)?.usages ?? [])]).toEqual(["1.0.18013.5.1.2"]);
    }
  });

  it("another device key's signature fails the independent verifier (the binding is real)", async () => {
    const signer = (await attestationSigner(settings))!;
    const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const [proof] = await checkProofs([await walletProof(pair)], ISSUER, Date.now());
    const mdoc = asMdoc(await issueProofOfAge(signer, proof!.deviceKey, Date.now()), other);
    const transcript = [null, null, ["test", new Uint8Array([9])]];
    const failed: string[] = [];
    await new Verifier([iacaPem]).verify(await deviceResponse(mdoc, transcript, { disclose: ["age_over_18"] }), {
      encodedSessionTranscript: encode(tag24(transcript)),
      onCheck: (check) => void (check.status === "FAILED" && failed.push(check.check)),
    });
    expect(failed).toContain("Device signature must be valid");
  });
});
