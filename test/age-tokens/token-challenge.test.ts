// The one challenge this service redeems, and the WWW-Authenticate value that asks for a token.
import { beforeAll, describe, expect, it } from "vitest";
import { ageTokenChallenge, loadTokenKeys, serviceHost, wwwAuthenticateValue, type TokenKeys } from "../../src/domain/age-tokens";
import { DEV_SETTING, devKey, freshKey, setting } from "./helpers";
import { hex, toHexString, tokenChallenge } from "./rfc-client";

const ascii = (text: string) => toHexString(new TextEncoder().encode(text));

describe("TokenChallenge", () => {
  it("is type 2, issuer_name and origin_info the host of APP_URL, redemption_context empty", () => {
    // 0002 | len 15 | "age.example.com" | len 0 | len 15 | "age.example.com"
    expect(toHexString(ageTokenChallenge("https://age.example.com"))).toBe(
      `0002000f${ascii("age.example.com")}00000f${ascii("age.example.com")}`,
    );
  });

  it("names the port when APP_URL names one, and drops a path", () => {
    expect(serviceHost("http://localhost:8787")).toBe("localhost:8787");
    expect(ageTokenChallenge("http://localhost:8787/some/path")).toEqual(
      tokenChallenge("localhost:8787", new Uint8Array(0), "localhost:8787"),
    );
  });

  it("differs between deployments, so one deployment's tokens are refused by another", () => {
    expect(ageTokenChallenge("https://staging.age.example.com")).not.toEqual(ageTokenChallenge("https://age.example.com"));
  });
});

describe("WWW-Authenticate", () => {
  let keys: TokenKeys;
  beforeAll(async () => {
    keys = await loadTokenKeys(DEV_SETTING);
  });
  const challengesIn = (value: string | null) => (value ?? "").match(/PrivateToken challenge="[^"]+", token-key="[^"]+"/g) ?? [];
  const keyParam = (ageOver: number) =>
    `token-key="${btoa(String.fromCharCode(...keys.find((k) => k.ageOver === ageOver)!.publicKey))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")}"`;

  it("offers one challenge per threshold that meets the age, lowest first", () => {
    const value = wwwAuthenticateValue(ageTokenChallenge("https://age.example.com"), keys, 18);
    const offered = challengesIn(value);
    expect(offered).toHaveLength(2);
    expect(offered[0]).toContain(keyParam(18));
    expect(offered[1]).toContain(keyParam(21));
    expect(challengesIn(wwwAuthenticateValue(ageTokenChallenge("https://age.example.com"), keys, 19))).toEqual([
      expect.stringContaining(keyParam(21)),
    ]);
  });

  it("carries the challenge as padded base64url", () => {
    const challenge = ageTokenChallenge("https://age.example.com");
    const expected = btoa(String.fromCharCode(...challenge))
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    expect(expected.endsWith("=")).toBe(true); // 37 bytes: the padding is there to keep
    expect(wwwAuthenticateValue(challenge, keys, 18)).toContain(`challenge="${expected}"`);
  });

  it("offers current keys only, the challenges separated by a comma and a space", async () => {
    const rotating = await loadTokenKeys(
      setting([
        { age_over: 18, current: await freshKey(), previous: devKey(18) },
        { age_over: 21, current: devKey(21) },
      ]),
    );
    const challenge = ageTokenChallenge("https://age.example.com");
    const value = wwwAuthenticateValue(challenge, rotating, 18)!;
    const encoded = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, "-")
        .replace(/\//g, "_");
    expect(value).toBe(
      rotating
        .filter((k) => k.role === "current")
        .map((k) => `PrivateToken challenge="${encoded(challenge)}", token-key="${encoded(k.publicKey)}"`)
        .join(", "),
    );
    expect(value).not.toContain(encoded(rotating.find((k) => k.role === "previous")!.publicKey));
  });

  it("is null when no threshold offered meets the age (the token way is not offered)", () => {
    expect(wwwAuthenticateValue(hex("0002"), keys, 22)).toBeNull();
  });
});
