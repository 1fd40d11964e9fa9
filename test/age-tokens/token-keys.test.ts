// The AGE_TOKEN_KEYS setting: what it accepts, and every way it refuses, without ever quoting a key.
import { describe, expect, it } from "vitest";
import { loadTokenKeys, publishedKeyIds, tokenKeysFromSetting, TokenKeysMisconfigured } from "../../src/domain/age-tokens";
import clash from "../fixtures/age-token-keys-truncated-id-clash.json";
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

describe("AGE_TOKEN_KEYS, what each refusal says", () => {
  const refusalOf = (value: string) =>
    loadTokenKeys(value).then(
      () => "accepted",
      (error: Error) => error.message,
    );

  it("names the threshold and the role of a key that does not import", async () => {
    expect(await refusalOf(setting([{ age_over: 18, current: devKey(18), previous: "bm90IGEga2V5" }]))).toBe(
      "AGE_TOKEN_KEYS: age_over 18 previous is not a base64 PKCS#8 RSA private key",
    );
    expect(await refusalOf(setting([{ age_over: 21, current: "bm90IGEga2V5" }]))).toBe(
      "AGE_TOKEN_KEYS: age_over 21 current is not a base64 PKCS#8 RSA private key",
    );
  });

  it("says what a token key must be", async () => {
    expect(await refusalOf(setting([{ age_over: 18, current: await rsaKey(1024) }]))).toBe(
      "AGE_TOKEN_KEYS: age_over 18 current must be RSA-2048 with public exponent 65537 (RFC 9578 token type 2)",
    );
  });

  it("says a key is used twice", async () => {
    expect(await refusalOf(setting([{ age_over: 18, current: devKey(18), previous: devKey(18) }]))).toBe(
      "AGE_TOKEN_KEYS: uses one key twice",
    );
  });

  it("refuses a current and previous key whose ids end in the same byte, and takes them for two thresholds", async () => {
    expect(await refusalOf(setting([{ age_over: 18, current: clash.first, previous: clash.second }]))).toBe(
      "AGE_TOKEN_KEYS: age_over 18: the current and previous keys share a truncated key id; generate another current key",
    );
    const keys = await loadTokenKeys(
      setting([
        { age_over: 18, current: clash.first },
        { age_over: 21, current: clash.second },
      ]),
    );
    const lastBytes = keys.map((k) => k.tokenKeyId[31]);
    expect(lastBytes[0]).toBe(lastBytes[1]); // the fixture still clashes, or this case proves nothing
  });
});

describe("AGE_TOKEN_KEYS, what it accepts", () => {
  it("takes a key wrapped over lines and spaced, as a PEM body is", async () => {
    const wrapped = devKey(18).replace(/.{64}/g, "$&\n  ");
    expect(wrapped).toContain("\n  ");
    const [fromWrapped] = await loadTokenKeys(setting([{ age_over: 18, current: wrapped }]));
    const [fromPlain] = await loadTokenKeys(setting([{ age_over: 18, current: devKey(18) }]));
    expect(fromWrapped!.tokenKeyIdHex).toBe(fromPlain!.tokenKeyIdHex);
  });

  it("imports the signing half for signing only, never to be exported", async () => {
    const [key] = await loadTokenKeys(DEV_SETTING);
    expect(key!.signing!.signKey.extractable).toBe(false);
    expect(key!.signing!.signKey.usages).toEqual(["sign"]);
    expect(key!.signing!.signKey.algorithm.name).toBe("RSA-RAW");
  });

  it("lists every published key's id for the spent records, in the keys' order", async () => {
    const keys = await loadTokenKeys(
      setting([
        { age_over: 18, current: await freshKey(), previous: devKey(18) },
        { age_over: 21, current: devKey(21) },
      ]),
    );
    expect(publishedKeyIds(keys)).toEqual(keys.map((k) => k.tokenKeyIdHex));
    expect(new Set(publishedKeyIds(keys)).size).toBe(3);
    for (const id of publishedKeyIds(keys)) expect(id).toMatch(/^[0-9a-f]{64}$/);
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

  it("a setting that fails after another took its place leaves the other remembered", async () => {
    const broken = tokenKeysFromSetting(setting([{ age_over: 18, current: "bm90IGEga2V5" }]));
    const good = tokenKeysFromSetting(DEV_SETTING);
    await expect(broken).rejects.toBeInstanceOf(TokenKeysMisconfigured);
    expect(tokenKeysFromSetting(DEV_SETTING)).toBe(good);
  });

  it("two failures that end in either order leave nothing remembered", async () => {
    const later = tokenKeysFromSetting(setting([{ age_over: 18, current: "bm90IGEga2V5" }]));
    const sooner = tokenKeysFromSetting("nope");
    await expect(sooner).rejects.toBeInstanceOf(TokenKeysMisconfigured);
    await expect(later).rejects.toBeInstanceOf(TokenKeysMisconfigured);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(tokenKeysFromSetting("nope")).not.toBe(sooner);
  });
});
