// An SD-JWT VC presentation (IETF SD-JWT, RFC 9901, and the SD-JWT VC draft) as OpenID4VP returns it:
// `<issuer JWT>~<disclosure>~…~<key-binding JWT>`. Checked here: the issuer JWT's signature by its `x5c`
// certificate chained to a trust anchor, its type, validity and `vct`; every disclosure's digest, each
// referenced once; the key-binding JWT by the credential's `cnf` key, over this presentation
// (`sd_hash`), this request's nonce and the page's origin (`aud` = `origin:` + origin). Only
// `age_equal_or_over` statements come out.
import { ApiError } from "../errors";
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from "../lib/encoding";
import { readBase64 } from "./base64";
import { isJsonObject as isObject, ownEntry, type JsonObject } from "./json";
import { verifyChain } from "./certificate-chain";
import { SD_JWT_VC_TYPES } from "./credentials";
import { curveOf, importEcJwk, importSpki, verifyRaw, type Curve, type Hash } from "./ecdsa";
import { invalid } from "./failures";
import { jsonStatusReference } from "./status-reference";
import type { AgeClaim } from "./age-outcome";
import type { Certificate } from "./x509";

const ALGORITHMS: Record<string, { hash: Hash; curve: Curve }> = {
  ES256: { hash: "SHA-256", curve: "P-256" },
  ES384: { hash: "SHA-384", curve: "P-384" },
  ES512: { hash: "SHA-512", curve: "P-521" },
};
/** How far a key-binding JWT's `iat` may stand from now: it is made for this request, seconds ago. */
const KEY_BINDING_SKEW_SECONDS = 300;
/** Disclosures one presentation may carry: the age asked for and its neighbours are a handful. */
export const MAX_DISCLOSURES = 64;

type Json = JsonObject;
type Jwt = { header: Json; payload: Json; signingInput: Uint8Array<ArrayBuffer>; signature: Uint8Array<ArrayBuffer> };

export function readJwt(text: string, what: string): Jwt {
  const parts = text.split(".");
  if (parts.length !== 3 || !parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part))) throw invalid(`the ${what} is not a compact JWS.`);
  try {
    const header = JSON.parse(fromUtf8(fromBase64Url(parts[0]!)));
    const payload = JSON.parse(fromUtf8(fromBase64Url(parts[1]!)));
    if (!isObject(header) || !isObject(payload)) throw new Error();
    const signature = fromBase64Url(parts[2]!);
    // One text per signature: the unused bits of the last character must be zero (RFC 4648 §3.5), else
    // the same signature passes under many spellings and a presentation is not one string.
    if (toBase64Url(signature) !== parts[2]) throw invalid(`the ${what} is not a compact JWS (its signature is not canonical base64url).`);
    return { header, payload, signingInput: utf8(`${parts[0]}.${parts[1]}`), signature };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid(`the ${what} is not JSON.`);
  }
}

export async function verifyJws(jwt: Jwt, key: CryptoKey, what: string): Promise<void> {
  const algorithm = typeof jwt.header.alg === "string" ? ownEntry(ALGORITHMS, jwt.header.alg) : undefined;
  if (!algorithm || curveOf(key) !== algorithm.curve) throw invalid(`the ${what} uses an algorithm this service does not accept.`);
  if (!(await verifyRaw(key, algorithm.hash, jwt.signature, jwt.signingInput))) throw invalid(`the ${what}'s signature is wrong.`);
}

const sha256Url = async (text: string) => toBase64Url(await crypto.subtle.digest("SHA-256", utf8(text)));

/** Replaces digests by their disclosures (RFC 9901 §7.1); every disclosure must be used exactly once. */
function disclose(value: unknown, disclosures: Map<string, unknown[]>, used: Set<string>): unknown {
  const take = (digest: unknown): unknown[] | undefined => {
    if (typeof digest !== "string") throw invalid("a selective-disclosure digest is not a string.");
    const disclosure = disclosures.get(digest);
    if (!disclosure) return undefined;
    if (used.has(digest)) throw invalid("a disclosure is referenced twice.");
    used.add(digest);
    return disclosure;
  };
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      if (isObject(item) && Object.keys(item).length === 1 && "..." in item) {
        const disclosure = take(item["..."]);
        if (disclosure) {
          if (disclosure.length !== 2) throw invalid("an array-element disclosure is not [salt, value].");
          out.push(disclose(disclosure[1], disclosures, used));
        }
      } else out.push(disclose(item, disclosures, used));
    }
    return out;
  }
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) if (key !== "_sd" && key !== "_sd_alg") out[key] = disclose(item, disclosures, used);
  if (value._sd !== undefined) {
    if (!Array.isArray(value._sd)) throw invalid("`_sd` is not an array.");
    for (const digest of value._sd) {
      const disclosure = take(digest);
      if (!disclosure) continue; // a decoy digest, or a claim the holder did not disclose
      if (disclosure.length !== 3 || typeof disclosure[1] !== "string")
        throw invalid("an object-property disclosure is not [salt, name, value].");
      const name = disclosure[1];
      if (name === "_sd" || name === "..." || name === "__proto__" || name in out)
        throw invalid("a disclosure names a reserved or existing claim.");
      out[name] = disclose(disclosure[2], disclosures, used);
    }
  }
  return out;
}

async function readDisclosures(parts: string[]): Promise<Map<string, unknown[]>> {
  const disclosures = new Map<string, unknown[]>();
  for (const part of parts) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(fromUtf8(fromBase64Url(part)));
    } catch {
      throw invalid("a disclosure is not base64url JSON.");
    }
    if (!Array.isArray(decoded) || typeof decoded[0] !== "string") throw invalid("a disclosure is not an array with a salt.");
    const digest = await sha256Url(part);
    if (disclosures.has(digest)) throw invalid("a disclosure is repeated.");
    disclosures.set(digest, decoded);
  }
  return disclosures;
}

/** `exp` is required (an SD-JWT VC without one would never expire); `nbf` and `iat` are optional; all are NumericDate. */
function checkTimes(payload: Json, now: Date): void {
  const seconds = now.getTime() / 1000;
  if (typeof payload.exp !== "number") throw invalid("the credential has no numeric expiry (exp).");
  for (const claim of ["nbf", "iat"])
    if (payload[claim] !== undefined && typeof payload[claim] !== "number") throw invalid(`the credential's ${claim} is not a number.`);
  if (seconds >= payload.exp) throw invalid("the credential has expired (exp).");
  if (typeof payload.nbf === "number" && seconds < payload.nbf) throw invalid("the credential is not valid yet (nbf).");
  if (typeof payload.iat === "number" && seconds + KEY_BINDING_SKEW_SECONDS < payload.iat)
    throw invalid("the credential is issued in the future (iat).");
}

export type SdJwtBinding = { nonce: string; audience: string };

export async function verifySdJwtVc(presentation: string, binding: SdJwtBinding, anchors: Certificate[], now: Date): Promise<AgeClaim[]> {
  const parts = presentation.split("~");
  if (parts.length < 2) throw invalid("the SD-JWT VC is not `<JWT>~…~<key-binding JWT>`.");
  if (parts.length - 2 > MAX_DISCLOSURES) throw invalid(`the SD-JWT VC carries more than ${MAX_DISCLOSURES} disclosures.`);
  const issuerJwt = readJwt(parts[0]!, "issuer JWT");
  const keyBindingText = parts[parts.length - 1]!;
  if (keyBindingText === "") throw invalid("the SD-JWT VC has no key-binding JWT.");

  // Issuer signature, by the x5c signer chained to an anchor.
  if (issuerJwt.header.typ !== "dc+sd-jwt" && issuerJwt.header.typ !== "vc+sd-jwt")
    throw invalid("the issuer JWT is not an SD-JWT VC (typ).");
  const x5c = issuerJwt.header.x5c;
  if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((entry) => typeof entry === "string"))
    throw invalid("the issuer JWT carries no certificate (x5c).");
  const signer = await verifyChain(
    x5c.map((entry) => readBase64(entry as string, "a certificate of the issuer JWT (x5c)")),
    anchors,
    now,
    "sd-jwt-vc",
  );
  await verifyJws(issuerJwt, await importSpki(signer.spki, signer.curve), "issuer JWT");
  const payload = issuerJwt.payload;
  if (typeof payload.vct !== "string" || !SD_JWT_VC_TYPES.includes(payload.vct))
    throw invalid("the SD-JWT VC is not of a requested type (vct).");
  if ((payload._sd_alg ?? "sha-256") !== "sha-256") throw invalid("the SD-JWT VC's digest algorithm is not accepted.");
  checkTimes(payload, now);
  const status = jsonStatusReference(payload.status);

  // Disclosures, each matching a digest the issuer signed.
  const disclosures = await readDisclosures(parts.slice(1, -1));
  const used = new Set<string>();
  const claims = disclose(payload, disclosures, used) as Json;
  if (used.size !== disclosures.size) throw invalid("a disclosure matches no digest the issuer signed.");

  // Key binding: the holder's key signed this presentation for this request and this origin.
  const keyBinding = readJwt(keyBindingText, "key-binding JWT");
  const cnf = payload.cnf;
  const holderJwk = isObject(cnf) && isObject(cnf.jwk) ? cnf.jwk : null;
  if (holderJwk?.kty !== "EC" || typeof holderJwk.crv !== "string" || typeof holderJwk.x !== "string" || typeof holderJwk.y !== "string")
    throw invalid("the SD-JWT VC has no holder key (cnf.jwk).");
  let holderKey: CryptoKey;
  try {
    holderKey = await importEcJwk({ crv: holderJwk.crv as Curve, x: holderJwk.x, y: holderJwk.y });
  } catch {
    throw invalid("the SD-JWT VC's holder key is not a valid EC key.");
  }
  if (keyBinding.header.typ !== "kb+jwt") throw invalid("the key-binding JWT's type is not kb+jwt.");
  await verifyJws(keyBinding, holderKey, "key-binding JWT");
  const kb = keyBinding.payload;
  if (kb.nonce !== binding.nonce) throw invalid("the key-binding JWT is for another request (nonce).");
  if (kb.aud !== binding.audience) throw invalid("the key-binding JWT is for another origin (aud).");
  if (kb.sd_hash !== (await sha256Url(presentation.slice(0, presentation.length - keyBindingText.length))))
    throw invalid("the key-binding JWT does not cover this presentation (sd_hash).");
  if (typeof kb.iat !== "number" || Math.abs(now.getTime() / 1000 - kb.iat) > KEY_BINDING_SKEW_SECONDS)
    throw invalid("the key-binding JWT was not made for this request (iat).");

  const ages: AgeClaim[] = [];
  const statements = claims.age_equal_or_over;
  if (isObject(statements)) {
    for (const [age, over] of Object.entries(statements)) {
      if (!/^\d{1,3}$/.test(age)) continue;
      if (typeof over !== "boolean") throw invalid("an age statement is not a boolean.");
      ages.push({ age: Number(age), over, status });
    }
  }
  return ages;
}
