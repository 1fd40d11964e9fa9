// Issuance: well-formed TokenRequests for an offered threshold's current key are blind-signed; any
// malformed one refuses the whole call with one error per problem, and nothing is signed.
import { beforeAll, describe, expect, it } from "vitest";
import { issueTokens, loadTokenKeys, MAX_TOKEN_REQUESTS, type TokenKeys } from "../../src/domain/age-tokens";
import { checkTokenRequests, signRequests } from "../../src/domain/age-tokens/issuance";
import { DEV_SETTING } from "./helpers";
import { b64url, createTokenRequest, tokenChallenge } from "./rfc-client";

let keys: TokenKeys;
const challenge = tokenChallenge("age.example.com", new Uint8Array(0), "age.example.com");
const keyOf = (ageOver: number) => keys.find((k) => k.ageOver === ageOver && k.role === "current")!.publicKey;
const requestFor = async (ageOver: number) => (await createTokenRequest(challenge, keyOf(ageOver))).tokenRequest;
/** A TokenRequest for the 18 key whose blinded message is all ones: not below the key's modulus. */
async function outOfRangeRequest(): Promise<Uint8Array> {
  const request = new Uint8Array(3 + 256).fill(0xff);
  request.set([0, 2, new Uint8Array(await crypto.subtle.digest("SHA-256", keyOf(18)))[31]!]);
  return request;
}

beforeAll(async () => {
  keys = await loadTokenKeys(DEV_SETTING);
});

describe("happy path", () => {
  it(`answers 1 to ${MAX_TOKEN_REQUESTS} requests with one 256-byte blind signature each, in order`, async () => {
    const requests = await Promise.all(Array.from({ length: MAX_TOKEN_REQUESTS }, () => requestFor(18)));
    const responses = await issueTokens(keys, 18, requests.map(b64url));
    expect(responses).toHaveLength(MAX_TOKEN_REQUESTS);
    for (const response of responses) expect(response).toMatch(/^[A-Za-z0-9_-]{342}$/);
    expect(new Set(responses).size).toBe(MAX_TOKEN_REQUESTS);
  });
});

describe("refusals", () => {
  const refusedWith = (paths: string[]) => ({
    code: "VALIDATION_FAILED",
    status: 422,
    errors: paths.map((path) => expect.objectContaining({ path })),
  });

  it("a threshold the deployment does not offer is 422 on age_over", async () => {
    await expect(issueTokens(keys, 16, [b64url(await requestFor(18))])).rejects.toMatchObject(refusedWith(["age_over"]));
  });

  it.each([0, MAX_TOKEN_REQUESTS + 1])("%i requests in one call is 422 on token_requests", async (count) => {
    const one = b64url(await requestFor(18));
    await expect(
      issueTokens(
        keys,
        18,
        Array.from({ length: count }, () => one),
      ),
    ).rejects.toMatchObject(refusedWith(["token_requests"]));
  });

  it("malformed requests are each named, and the well-formed one beside them is not signed", async () => {
    const good = await requestFor(18);
    const otherType = good.slice();
    otherType[1] = 1;
    const tooShort = good.slice(0, good.length - 1);
    const tooLong = new Uint8Array([...good, 0]);
    const call = issueTokens(keys, 18, [b64url(good), "not base64url!", b64url(otherType), b64url(tooShort), b64url(tooLong)]);
    await expect(call).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: ["token_requests.1", "token_requests.2", "token_requests.3", "token_requests.4"].map((path) =>
        expect.objectContaining({ path }),
      ),
    });
  });

  it("a request for another threshold's key (its truncated_token_key_id) is 422", async () => {
    expect(keyOf(18)).not.toEqual(keyOf(21));
    const for21 = await requestFor(21);
    const id18 = new Uint8Array(await crypto.subtle.digest("SHA-256", keyOf(18)))[31];
    expect(for21[2]).not.toBe(id18); // the dev keys' ids differ in their last byte, or this case proves nothing
    await expect(issueTokens(keys, 18, [b64url(for21)])).rejects.toMatchObject(refusedWith(["token_requests.0"]));
  });

  it("a blinded message not below the key's modulus is 422, not a 500", async () => {
    const request = await outOfRangeRequest();
    await expect(issueTokens(keys, 18, [b64url(request)])).rejects.toMatchObject(refusedWith(["token_requests.0"]));
  });

  it("says what is wrong with each request", async () => {
    const good = await requestFor(18);
    const otherType = good.slice();
    otherType[1] = 1;
    const for21 = await requestFor(21);
    const call = issueTokens(keys, 18, ["not base64url!", b64url(otherType), b64url(good.slice(0, 100)), b64url(for21)]);
    await expect(call).rejects.toMatchObject({
      errors: [
        { path: "token_requests.0", message: "not base64url." },
        { path: "token_requests.1", message: "not a TokenRequest of token type 2 (blind RSA)." },
        { path: "token_requests.2", message: "a TokenRequest of token type 2 is 259 bytes." },
        {
          path: "token_requests.3",
          message: "truncated_token_key_id is not this threshold's current key; fetch the issuer directory again.",
        },
      ],
    });
  });

  it("names the thresholds offered and the number of requests allowed", async () => {
    const one = b64url(await requestFor(18));
    await expect(issueTokens(keys, 16, [one])).rejects.toMatchObject({
      errors: [{ path: "age_over", message: "No token key for this threshold; offered: 18, 21." }],
    });
    await expect(issueTokens(keys, 18, [])).rejects.toMatchObject({
      errors: [{ path: "token_requests", message: `Send 1 to ${MAX_TOKEN_REQUESTS} TokenRequests.` }],
    });
  });

  it("refuses a blinded message out of the key's range while checking, before any signature", async () => {
    const request = await outOfRangeRequest();
    const good = b64url(await requestFor(18));
    expect(() => checkTokenRequests(keys, 18, [good, b64url(request)])).toThrow(
      expect.objectContaining({
        code: "VALIDATION_FAILED",
        errors: [{ path: "token_requests.1", message: "blinded_msg is not below the key's modulus." }],
      }),
    );
  });

  it("refuses it while signing too, should an unchecked one reach the key", async () => {
    const checked = checkTokenRequests(keys, 18, [b64url(await requestFor(18)), b64url(await requestFor(18))]);
    const outOfRange = new Uint8Array(256).fill(0xff);
    await expect(signRequests({ ...checked, blindedMessages: [checked.blindedMessages[0]!, outOfRange] })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "token_requests.1", message: "blinded_msg is not below the key's modulus." }],
    });
  });

  it("passes on any other failure of a signature as it is, a fault and not the caller's", async () => {
    const checked = checkTokenRequests(keys, 18, [b64url(await requestFor(18))]);
    // A public exponent the key does not have: the signature fails its RSAVP1 check (blind-rsa.ts).
    const call = signRequests({ ...checked, signing: { ...checked.signing, publicExponent: 3n } });
    await expect(call).rejects.toThrow(new Error("blind signature failed its check"));
    await expect(call).rejects.not.toHaveProperty("code");
  });
});
