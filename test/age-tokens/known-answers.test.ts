// The published known answers: RFC 9578 Appendix A.2 (token type 2: key encoding, issuance, the token),
// RFC 9474's RSABSSA-SHA384-PSS-Deterministic vector (BlindSign and verification), and RFC 9577's
// WWW-Authenticate vector. Each checks the code under test and the test's own RFC client.
import { describe, expect, it } from "vitest";
import { issueTokens, loadTokenKeys, verifyAgeToken, wwwAuthenticateValue, type TokenKey } from "../../src/domain/age-tokens";
import { blindSign, verifyPss } from "../../src/domain/age-tokens/blind-rsa";
import rfc9474 from "../fixtures/rfc9474-rsabssa-sha384-pss-deterministic.json";
import rfc9577 from "../fixtures/rfc9577-header-vector.json";
import rfc9578 from "../fixtures/rfc9578-type2-vectors.json";
import { pemBody, setting } from "./helpers";
import { b64url, blind, createTokenRequest, finalize, hex, toHexString, unb64url } from "./rfc-client";

const big = (h: string) => BigInt(`0x${h}`);
const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;
function inverse(value: bigint, modulus: bigint): bigint {
  let [a, b, x0, x1] = [mod(value, modulus), modulus, 1n, 0n];
  while (b !== 0n) [a, b, x0, x1] = [b, a % b, x1, x0 - (a / b) * x1];
  return mod(x0, modulus);
}
const jwkInt = (v: bigint) => b64url(hex(v.toString(16).padStart(Math.ceil(v.toString(16).length / 2) * 2, "0")));

describe("RFC 9578 Appendix A.2, token type 2", () => {
  const keysOf = (v: (typeof rfc9578.vectors)[number]) => loadTokenKeys(setting([{ age_over: 18, current: pemBody(v.skS) }]));

  it.each(rfc9578.vectors.map((v, i) => [i + 1, v] as const))("vector %i: the published token key is the RFC's pkS", async (_, v) => {
    const [key] = await keysOf(v);
    expect(toHexString(key!.publicKey)).toBe(v.pkS);
  });

  it.each(rfc9578.vectors.map((v, i) => [i + 1, v] as const))(
    "vector %i: the issuer answers the RFC's token_request with its token_response",
    async (_, v) => {
      const keys = await keysOf(v);
      expect(await issueTokens(keys, 18, [b64url(hex(v.token_request))])).toEqual([b64url(hex(v.token_response))]);
    },
  );

  it.each(rfc9578.vectors.map((v, i) => [i + 1, v] as const))(
    "vector %i: the RFC's token verifies for its challenge, and its spent record is its nonce's SHA-256",
    async (_, v) => {
      const keys = await keysOf(v);
      const verified = await verifyAgeToken(b64url(hex(v.token)), { keys, expectedChallenge: hex(v.token_challenge), ageRequired: 18 });
      expect(verified.ageOver).toBe(18);
      expect(verified.spent.nonceHash).toBe(toHexString(await crypto.subtle.digest("SHA-256", hex(v.nonce))));
      expect(verified.spent.tokenKeyId).toBe(toHexString(await crypto.subtle.digest("SHA-256", hex(v.pkS))));
    },
  );

  it.each(rfc9578.vectors.map((v, i) => [i + 1, v] as const))(
    "vector %i: the test's RFC client builds the RFC's token_request and token",
    async (_, v) => {
      const client = await createTokenRequest(hex(v.token_challenge), hex(v.pkS), {
        nonce: hex(v.nonce),
        salt: hex(v.salt),
        r: big(v.blind),
      });
      expect(toHexString(client.tokenRequest)).toBe(v.token_request);
      expect(toHexString(await client.finalize(hex(v.token_response)))).toBe(v.token);
    },
  );
});

describe("RFC 9474 RSABSSA-SHA384-PSS-Deterministic vector", () => {
  const v = rfc9474.vector;
  const [n, e, d, p, q] = [big(v.n), big(v.e), big(v.d), big(v.p), big(v.q)];

  async function signingKey() {
    const jwk = {
      kty: "RSA",
      n: jwkInt(n),
      e: jwkInt(e),
      d: jwkInt(d),
      p: jwkInt(p),
      q: jwkInt(q),
      dp: jwkInt(d % (p - 1n)),
      dq: jwkInt(d % (q - 1n)),
      qi: jwkInt(inverse(q, p)),
      ext: true,
    };
    const pss = await crypto.subtle.importKey("jwk", jwk, { name: "RSA-PSS", hash: "SHA-384" }, true, ["sign"]);
    const pkcs8 = (await crypto.subtle.exportKey("pkcs8", pss)) as ArrayBuffer;
    const signKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSA-RAW", hash: "SHA-384" }, false, ["sign"]);
    const verifyKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "RSA", n: jwk.n, e: jwk.e },
      { name: "RSA-PSS", hash: "SHA-384" },
      false,
      ["verify"],
    );
    return { signing: { signKey, modulus: n, publicExponent: e }, verifyKey };
  }

  it("BlindSign answers blinded_msg with blind_sig", async () => {
    const { signing } = await signingKey();
    expect(toHexString(await blindSign(signing, hex(v.blinded_msg)))).toBe(v.blind_sig);
  });

  it("BlindSign never hands out a signature that fails its RSAVP1 check (RFC 9474 §7.1, fault attacks)", async () => {
    const { signing } = await signingKey();
    // The private operation is right for n; checked against n + 2 it cannot be, as a faulty one would not.
    await expect(blindSign({ ...signing, modulus: n + 2n }, hex(v.blinded_msg))).rejects.toThrow("blind signature failed its check");
  });

  it("the finished signature verifies over the prepared message, and a changed message does not", async () => {
    const { verifyKey } = await signingKey();
    expect(await verifyPss(verifyKey, hex(v.prepared_msg), hex(v.sig))).toBe(true);
    const changed = hex(v.prepared_msg);
    changed[0]! ^= 1;
    expect(await verifyPss(verifyKey, changed, hex(v.sig))).toBe(false);
  });

  it("the test's RFC client encodes, blinds and finalizes to the RFC's values", async () => {
    const blinded = await blind({ n, e }, hex(v.prepared_msg), { salt: hex(v.salt), r: inverse(big(v.inv), n) });
    expect(toHexString(blinded.encoded)).toBe(v.encoded_msg);
    expect(toHexString(blinded.blindedMsg)).toBe(v.blinded_msg);
    expect(blinded.inv).toBe(big(v.inv));
    expect(toHexString(await finalize({ n, e }, hex(v.prepared_msg), hex(v.blind_sig), blinded.inv))).toBe(v.sig);
  });
});

describe("RFC 9577 Appendix A.2, WWW-Authenticate", () => {
  it("carries the challenge and the token key as padded base64url quoted strings, as the RFC's header does", () => {
    const key = { ageOver: 18, role: "current", publicKey: hex(rfc9577.token_key) } as TokenKey;
    expect(wwwAuthenticateValue(hex(rfc9577.token_challenge), [key], 18)).toBe(
      `PrivateToken challenge="${rfc9577.header_challenge}", token-key="${rfc9577.header_token_key}"`,
    );
    expect(unb64url(rfc9577.header_challenge.replace(/=+$/, ""))).toEqual(hex(rfc9577.token_challenge));
  });
});
