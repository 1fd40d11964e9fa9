// Signing secrets at rest: sealed under the newest SECRETS_KEY, bound to their row, opened by the key
// their tag names; the legacy "v1." rows still open.
import { describe, expect, it } from "vitest";
import { toBase64Url } from "../../src/lib/encoding";
import { keyId } from "../../src/lib/key-id";
import { legacySeal } from "../helpers/legacy-seal";
import { LEGACY_TAG, openSecret, sealSecret, sealedKeyId } from "../../src/lib/sealed-secret";

const OLD = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
const NEW = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));

describe("sealed secrets", () => {
  it("names the key that sealed it and opens with it", async () => {
    const sealed = await sealSecret("whsec_one", NEW, "key_a");
    expect(sealedKeyId(sealed)).toBe(await keyId(NEW));
    expect(sealedKeyId(sealed)).toMatch(/^k[0-9a-f]{8}$/);
    expect(await openSecret(sealed, [NEW], "key_a")).toBe("whsec_one");
  });

  it("binds the ciphertext to its row: moved to another key's row, it does not open", async () => {
    const sealed = await sealSecret("whsec_one", NEW, "key_a");
    await expect(openSecret(sealed, [NEW], "key_b")).rejects.toThrow();
  });

  it("refuses a tag that names another key, an altered ciphertext, and a wrong shape", async () => {
    const sealed = await sealSecret("whsec_one", NEW, "key_a");
    await expect(openSecret(sealed, [OLD], "key_a")).rejects.toThrow(/not configured/);
    const [tag, iv, ct] = sealed.split(".") as [string, string, string];
    const flipped = ct.slice(0, -2) + (ct.at(-2) === "A" ? "B" : "A") + ct.at(-1);
    await expect(openSecret(`${tag}.${iv}.${flipped}`, [NEW], "key_a")).rejects.toThrow();
    await expect(openSecret(`${sealed}.extra`, [NEW], "key_a")).rejects.toThrow(/shape/);
    await expect(openSecret("garbage", [NEW], "key_a")).rejects.toThrow(/shape/);
  });

  it("rotation: a row sealed under the previous key still opens; new rows are sealed under the new one", async () => {
    const old = await sealSecret("whsec_old", OLD, "key_a");
    const keys = [NEW, OLD]; // SECRETS_KEY, SECRETS_KEY_PREVIOUS
    expect(await openSecret(old, keys, "key_a")).toBe("whsec_old");
    const fresh = await sealSecret("whsec_new", keys[0]!, "key_b");
    expect(sealedKeyId(fresh)).toBe(await keyId(NEW));
    await expect(openSecret(fresh, [OLD], "key_b")).rejects.toThrow();
    // Once the previous key is removed, its rows no longer open: the re-encryption job must run first.
    await expect(openSecret(old, [NEW], "key_a")).rejects.toThrow();
  });

  it("legacy rows (tag v1, no row binding) still open, under whichever configured key sealed them", async () => {
    const legacy = await legacySeal("whsec_legacy", OLD);
    expect(sealedKeyId(legacy)).toBe(LEGACY_TAG);
    expect(await openSecret(legacy, [OLD], "key_a")).toBe("whsec_legacy");
    expect(await openSecret(legacy, [NEW, OLD], "key_a")).toBe("whsec_legacy");
    await expect(openSecret(legacy, [NEW], "key_a")).rejects.toThrow();
  });
});
