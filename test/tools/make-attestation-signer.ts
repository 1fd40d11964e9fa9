// TEST ONLY. Writes the committed development document signer of the proof-of-age attestations
// (test/fixtures/dev-attestation-signer.json: ATTESTATION_SIGNING_KEY and ATTESTATION_CERTIFICATES, as
// wrangler.toml's [vars] carry them): a P-256 key and its certificate (mdoc document signer extended key
// usage 1.0.18013.5.1.2, a country name as ISO/IEC 18013-5 Annex B asks) under the committed test IACA
// root (test/wallet/test-iaca.pem), which development's DIGITAL_ID_TRUST_ANCHORS already trusts.
// Production refuses both (src/config/problems.ts). Run again (from the repository root) only to replace
// them: `npx tsx test/tools/make-attestation-signer.ts`, then copy the values into wrangler.toml.
import { readFile, writeFile } from "node:fs/promises";
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(crypto);
const es256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

const rootPem = await readFile("test/wallet/test-iaca.pem", "utf8");
const rootJwk = JSON.parse(await readFile("test/wallet/test-iaca-key.json", "utf8")) as JsonWebKey;
const root = new x509.X509Certificate(rootPem);
const rootKey = await crypto.subtle.importKey("jwk", rootJwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
const signer = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;

const certificate = await x509.X509CertificateGenerator.create({
  serialNumber: Array.from(crypto.getRandomValues(new Uint8Array(15)), (b) => b.toString(16).padStart(2, "0")).join("").replace(/^[89a-f]/, "1"),
  // The root's own name bytes (UTF8String), which chain building compares exactly.
  issuer: root.subjectName,
  subject: "C=XX, CN=TEST ONLY - age-verification-service attestation document signer (never trust in production)",
  notBefore: new Date("2026-01-01T00:00:00Z"),
  notAfter: new Date("2036-01-01T00:00:00Z"),
  signingAlgorithm: es256,
  publicKey: signer.publicKey,
  signingKey: rootKey,
  extensions: [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(["1.0.18013.5.1.2"], true),
    await x509.SubjectKeyIdentifierExtension.create(signer.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(root.publicKey),
  ],
});

const { key_ops: _ops, ext: _ext, ...signingKey } = (await crypto.subtle.exportKey("jwk", signer.privateKey)) as JsonWebKey;
const certificates = `${certificate.toString("pem")}\n${root.toString("pem")}\n`;
await writeFile("test/fixtures/dev-attestation-signer.json", `${JSON.stringify({ signingKey: JSON.stringify(signingKey), certificates }, null, 2)}\n`);
