// The AGE_TOKEN_KEYS setting: what it accepts, and every way it refuses, without ever quoting a key.
import { describe, expect, it } from "vitest";
import { loadTokenKeys, tokenKeysFromSetting, TokenKeysMisconfigured } from "../../src/domain/age-tokens";
import { devKey, DEV_SETTING, freshKey, setting } from "./helpers";

async function rsaKey(modulusLength: number, exponent = [1, 0, 1]): Promise<string> {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSA-PSS", modulusLength, publicExponent: new Uint8Array(exponent), hash: "SHA-384" },
    true,
    ["sign"],
  )) as CryptoKeyPair;
  return btoa(String.fromCharCode(...new Uint8Array((await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer)));
}

describe("AGE_TOKEN_KEYS", () => {
  it("the development setting offers 18 and 21, each with a current key that signs", async () => {
    const keys = await loadTokenKeys(DEV_SETTING);
    expect(keys.map((k) => [k.ageOver, k.role, k.signing !== null])).toEqual([
      [18, "current", true],
      [21, "current", true],
    ]);
  });

  it("orders keys by threshold, each threshold's current key before its previous one, whatever the setting's order", async () => {
    const keys = await loadTokenKeys(
      setting([
        { age_over: 21, current: devKey(21) },
        { age_over: 18, current: await freshKey(), previous: devKey(18) },
      ]),
    );
    expect(keys.map((k) => [k.ageOver, k.role, k.signing !== null])).toEqual([
      [18, "current", true],
      [18, "previous", false],
      [21, "current", true],
    ]);
  });

  it.each([
    ["not JSON", () => "nope"],
    ["an empty list", () => "[]"],
    ["an entry without a current key", () => setting([{ age_over: 18 } as never])],
    ["an age_over out of range", () => setting([{ age_over: 0, current: devKey(18) }])],
    [
      "an unknown field (a typo must not pass silently)",
      () => JSON.stringify([{ age_over: 18, current: devKey(18), previos: devKey(21) }]),
    ],
    ["a key that is not PKCS#8", () => setting([{ age_over: 18, current: "bm90IGEga2V5" }])],
    [
      "one threshold twice",
      () =>
        setting([
          { age_over: 18, current: devKey(18) },
          { age_over: 18, current: devKey(21) },
        ]),
    ],
    [
      "one key for two thresholds",
      () =>
        setting([
          { age_over: 18, current: devKey(18) },
          { age_over: 21, current: devKey(18) },
        ]),
    ],
    ["a key that is current and previous at once", () => setting([{ age_over: 18, current: devKey(18), previous: devKey(18) }])],
  ])("refuses %s, naming the setting and never a key", async (_, value) => {
    const refusal = await loadTokenKeys(value()).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(TokenKeysMisconfigured);
    expect((refusal as Error).message).toMatch(/^AGE_TOKEN_KEYS: /);
    expect((refusal as Error).message).not.toContain(devKey(18).slice(40, 60));
  });

  it.each([
    ["a 1024-bit key", () => rsaKey(1024)],
    ["a 3072-bit key", () => rsaKey(3072)],
    ["a public exponent other than 65537", () => rsaKey(2048, [3])],
  ])("refuses %s: token type 2 is RSA-2048 with e = 65537", async (_, key) => {
    await expect(loadTokenKeys(setting([{ age_over: 18, current: await key() }]))).rejects.toBeInstanceOf(TokenKeysMisconfigured);
  });
});

describe("tokenKeysFromSetting", () => {
  it("imports a setting once per isolate, and retries one that failed", async () => {
    expect(tokenKeysFromSetting(DEV_SETTING)).toBe(tokenKeysFromSetting(DEV_SETTING));
    const broken = tokenKeysFromSetting("nope");
    await expect(broken).rejects.toBeInstanceOf(TokenKeysMisconfigured);
    expect(tokenKeysFromSetting("nope")).not.toBe(broken);
    await expect(tokenKeysFromSetting("nope")).rejects.toBeInstanceOf(TokenKeysMisconfigured);
  });
});
