/// <reference types="vite/client" />
// TEST ONLY. Independent judges of the same answers: @auth0/mdl's Verifier for an mdoc DeviceResponse
// with its SessionTranscript (issuer chain, MSO signature, digests, validity, device signature), and
// @sd-jwt/sd-jwt-vc for an SD-JWT VC with its key-binding JWT, its signatures checked by jose (the issuer
// JWT by its x5c certificate, itself checked against the root by @peculiar/x509). Around each, only the
// policy the libraries leave to their caller: the asked doctype or vct, the key-binding audience, and the
// outcome rule (age_over_18 / age_equal_or_over.18 true approves).
import rootPem from "../../wallet/test-iaca.pem?raw";
import { Verifier } from "@auth0/mdl";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { X509Certificate } from "@peculiar/x509";
import { compactVerify, decodeProtectedHeader, importJWK, importX509 } from "jose";
import { Tag, encode } from "../../wallet/cbor";
import { AGE } from "./answers";

export type Opinion = "APPROVED" | "refused";

const NAMESPACES: Record<string, string> = { "org.iso.18013.5.1.mDL": "org.iso.18013.5.1", "eu.europa.ec.av.1": "eu.europa.ec.av.1" };

/** @auth0/mdl on a DeviceResponse; the test root's subject has no country, a policy check left out here. */
export async function auth0Mdl(bytes: Uint8Array, transcript: unknown, onlyDocType?: string): Promise<Opinion> {
  try {
    const mdoc = await new Verifier([rootPem]).verify(bytes, {
      // SessionTranscriptBytes: #6.24(bstr .cbor SessionTranscript), as 18013-5 §9.1.5.1 writes it.
      encodedSessionTranscript: encode(new Tag(encode(transcript), 24)),
      onCheck: (check, original) => {
        if (check.check.startsWith("Country name")) return;
        original(check);
      },
    });
    if (mdoc.documents.length === 0) return "refused";
    let approves = false;
    for (const document of mdoc.documents) {
      const namespace = NAMESPACES[document.docType];
      if (!namespace || (onlyDocType && document.docType !== onlyDocType)) return "refused";
      const value = document.getIssuerNameSpace(namespace)?.[`age_over_${AGE}`];
      if (value === true) approves = true;
    }
    return approves ? "APPROVED" : "refused";
  } catch {
    return "refused";
  }
}

const root = new X509Certificate(rootPem);
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** @sd-jwt/sd-jwt-vc (disclosures, sd_hash, key binding, nonce, times) with jose for every signature. */
export async function sdJwtVcLibrary(presentation: string, binding: { nonce: string; audience: string }, now: Date): Promise<Opinion> {
  const instance = new SDJwtVcInstance({
    hasher: async (data, alg) => {
      if (alg !== "sha-256") throw new Error("hash");
      return new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? new TextEncoder().encode(data) : data));
    },
    verifier: async (data, signature) => {
      const header = decodeProtectedHeader(`${data}.${signature}`);
      const x5c = header.x5c;
      if (!Array.isArray(x5c) || x5c.length !== 1 || typeof header.alg !== "string") return false;
      const signer = new X509Certificate(fromBase64(x5c[0]!));
      if (!(await signer.verify({ publicKey: root, date: now }))) return false;
      await compactVerify(`${data}.${signature}`, await importX509(signer.toString("pem"), header.alg), {
        algorithms: ["ES256", "ES384", "ES512"],
      });
      return true;
    },
    kbVerifier: async (data, signature, payload) => {
      const jwk = (payload.cnf as { jwk?: Record<string, unknown> } | undefined)?.jwk;
      if (!jwk) return false;
      await compactVerify(`${data}.${signature}`, await importJWK(jwk, "ES256"), { algorithms: ["ES256", "ES384", "ES512"] });
      return true;
    },
  });
  try {
    const result = await instance.verify(presentation, {
      keyBindingNonce: binding.nonce,
      currentDate: Math.floor(now.getTime() / 1000),
      skewSeconds: 300,
    });
    const kb = result.kb?.payload as { aud?: unknown; iat?: unknown } | undefined;
    if (!kb || kb.aud !== binding.audience || typeof kb.iat !== "number" || Math.abs(now.getTime() / 1000 - kb.iat) > 300) return "refused";
    const payload = result.payload as { vct?: unknown; age_equal_or_over?: Record<string, unknown> };
    if (payload.vct !== "urn:eudi:pid:1" && payload.vct !== "urn:eu.europa.ec.eudi:pid:1") return "refused";
    return payload.age_equal_or_over?.[String(AGE)] === true ? "APPROVED" : "refused";
  } catch {
    return "refused";
  }
}
