// TEST ONLY. Writes the committed development issuer of the proof-of-age attestations
// (test/fixtures/dev-attestation-signer.json): its own test IACA root and a document signer under it
// (P-256; the signer's certificate carries the mdoc document signer extended key usage 1.0.18013.5.1.2;
// both carry a country name, as ISO/IEC 18013-5 Annex B asks), as wrangler.toml's [vars] carry them:
// ATTESTATION_SIGNING_KEY (the signer's private JWK) and ATTESTATION_CERTIFICATES (signer, then root);
// development's DIGITAL_ID_TRUST_ANCHORS lists the root too, so an attestation issued here approves a
// session here. The root's private key is not kept: nothing else is ever issued under it. Production
// refuses the signer and the root (src/config/problems.ts). Run again (from the repository root) only to
// replace them: `npx tsx test/tools/make-attestation-signer.ts`, then copy the values into wrangler.toml
// and the root's DER and the key's x into src/config/problems.ts.
import "reflect-metadata";
import { writeFile } from "node:fs/promises";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(crypto);
const es256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const serial = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(15)), (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .replace(/^[89a-f]/, "1");
const newPair = async () =>
  (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;

const rootKeys = await newPair();
const rootName = "C=XX, CN=TEST ONLY - age-verification-service attestation IACA (never trust in production)";
const root = await x509.X509CertificateGenerator.create({
  serialNumber: serial(),
  issuer: rootName,
  subject: rootName,
  notBefore: new Date("2026-01-01T00:00:00Z"),
  notAfter: new Date("2046-01-01T00:00:00Z"),
  signingAlgorithm: es256,
  publicKey: rootKeys.publicKey,
  signingKey: rootKeys.privateKey,
  extensions: [
    new x509.BasicConstraintsExtension(true, 0, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
  ],
});

const signer = await newPair();
const certificate = await x509.X509CertificateGenerator.create({
  serialNumber: serial(),
  // The root's own name bytes, which chain building compares exactly.
  issuer: root.subjectName,
  subject: "C=XX, CN=TEST ONLY - age-verification-service attestation document signer (never trust in production)",
  notBefore: new Date("2026-01-01T00:00:00Z"),
  notAfter: new Date("2036-01-01T00:00:00Z"),
  signingAlgorithm: es256,
  publicKey: signer.publicKey,
  signingKey: rootKeys.privateKey,
  extensions: [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension(["1.0.18013.5.1.2"], true),
    await x509.SubjectKeyIdentifierExtension.create(signer.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
  ],
});

const { key_ops: _ops, ext: _ext, ...signingKey } = (await crypto.subtle.exportKey("jwk", signer.privateKey)) as JsonWebKey;
const fixture = {
  signingKey: JSON.stringify(signingKey),
  certificates: `${certificate.toString("pem")}\n${root.toString("pem")}\n`,
  iaca: `${root.toString("pem")}\n`,
};
await writeFile("test/fixtures/dev-attestation-signer.json", `${JSON.stringify(fixture, null, 2)}\n`);
