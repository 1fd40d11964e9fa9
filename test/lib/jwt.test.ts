import { describe, expect, it } from "vitest";
import { toBase64Url, utf8 } from "../../src/lib/encoding";
import { signAccountToken, verifyAccountToken } from "../../src/lib/jwt";

const SECRET = "test-secret";
const b64 = (value: unknown) => toBase64Url(utf8(JSON.stringify(value)));

describe("account JWT", () => {
  it("round-trips subject and token version with a 12-hour expiry", async () => {
    const token = await signAccountToken(SECRET, "usr_x", 3, 1_000);
    const claims = await verifyAccountToken(SECRET, token, 1_001);
    expect(claims).toMatchObject({ sub: "usr_x", ver: 3, exp: 1_000 + 12 * 3600 });
  });

  it("refuses an expired token, another key's token and a tampered payload", async () => {
    const token = await signAccountToken(SECRET, "usr_x", 0, 1_000);
    expect(await verifyAccountToken(SECRET, token, 1_000 + 12 * 3600)).toBeNull();
    expect(await verifyAccountToken("other-secret", token, 1_001)).toBeNull();
    const [h, , s] = token.split(".");
    const forged = `${h}.${b64({ sub: "usr_admin", ver: 0, iss: "age-verification-service", aud: "age-verification-api", exp: 9e9 })}.${s}`;
    expect(await verifyAccountToken(SECRET, forged, 1_001)).toBeNull();
  });

  it("refuses alg none and a token without exp", async () => {
    // Every other claim valid (iat too, refused on its own since 1.2.0), so only exp can refuse the second.
    const claims = { sub: "usr_x", ver: 0, iss: "age-verification-service", aud: "age-verification-api", iat: 1, exp: 9e9 };
    expect(await verifyAccountToken(SECRET, `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`, 1)).toBeNull();
    const { exp: _exp, ...noExp } = claims;
    const key = await crypto.subtle.importKey("raw", utf8(SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const input = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(noExp)}`;
    const signature = toBase64Url(await crypto.subtle.sign("HMAC", key, utf8(input)));
    expect(await verifyAccountToken(SECRET, `${input}.${signature}`, 1)).toBeNull();
  });

  /** A token signed with the right key over any header and claims: what only the algorithm and claim checks can refuse. */
  async function signedWith(header: unknown, claims: unknown) {
    const key = await crypto.subtle.importKey("raw", utf8(SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const input = `${b64(header)}.${b64(claims)}`;
    return `${input}.${toBase64Url(await crypto.subtle.sign("HMAC", key, utf8(input)))}`;
  }
  const good = { sub: "usr_x", ver: 0, iss: "age-verification-service", aud: "age-verification-api", iat: 1, exp: 9e9 };

  it("pins HS256: a header naming another algorithm is refused even over a valid HMAC signature", async () => {
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, good), 1)).toMatchObject({ sub: "usr_x" });
    for (const alg of ["none", "HS512", "RS256", "hs256"]) {
      expect(await verifyAccountToken(SECRET, await signedWith({ alg, typ: "JWT" }, good), 1), alg).toBeNull();
    }
  });

  it("refuses a validly signed token without a numeric iat (account deletion reads it as the sign-in's time)", async () => {
    const { iat: _, ...noIat } = good;
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, noIat), 1)).toBeNull();
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, { ...good, iat: "now" }), 1)).toBeNull();
  });

  it("refuses a validly signed token whose only fault is its exp: missing, or not a number", async () => {
    const { exp: _, ...noExp } = good;
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, noExp), 1)).toBeNull();
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, { ...good, exp: "9999999999" }), 1)).toBeNull();
    // The same token with its exp is accepted: the refusals above are the exp's.
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, good), 1)).toMatchObject({ sub: "usr_x" });
  });

  it("refuses a validly signed token for another issuer or audience", async () => {
    expect(await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, { ...good, aud: "another-api" }), 1)).toBeNull();
    expect(
      await verifyAccountToken(SECRET, await signedWith({ alg: "HS256", typ: "JWT" }, { ...good, iss: "someone-else" }), 1),
    ).toBeNull();
  });
});
