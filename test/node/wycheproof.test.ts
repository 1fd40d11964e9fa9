// Project Wycheproof's published vectors (test/fixtures/wycheproof, Apache-2.0) through the service's own
// code path for every primitive it wires together itself: ECDSA P-256/384/521 as COSE and JWS carry it
// (r||s, src/digital-id/ecdsa.ts verifyRaw) and as X.509 does (DER, derSignatureToRaw then
// verifyRaw); ECDH P-256 as HPKE's DHKEM does it (the scalar imported as the Annex C key, then
// diffieHellmanP256); HKDF-SHA256 as HPKE's key schedule uses it; AES-GCM as the JWE and HPKE open it;
// RSASSA-PSS SHA-384 / MGF1-SHA-384 / 48-byte salt as an age token is verified. Each vector's expected
// result must be the project's: `valid` verifies, `invalid` is refused; `acceptable` may go either way.
import { describe, expect, it, vi } from "vitest";
import aesGcm from "../fixtures/wycheproof/aes_gcm_test.json";
import ecdh from "../fixtures/wycheproof/ecdh_secp256r1_ecpoint_test.json";
import p256Der from "../fixtures/wycheproof/ecdsa_secp256r1_sha256_test.json";
import p256P1363 from "../fixtures/wycheproof/ecdsa_secp256r1_sha256_p1363_test.json";
import p384Der from "../fixtures/wycheproof/ecdsa_secp384r1_sha384_test.json";
import p384P1363 from "../fixtures/wycheproof/ecdsa_secp384r1_sha384_p1363_test.json";
import p521Der from "../fixtures/wycheproof/ecdsa_secp521r1_sha512_test.json";
import p521P1363 from "../fixtures/wycheproof/ecdsa_secp521r1_sha512_p1363_test.json";
import hkdf from "../fixtures/wycheproof/hkdf_sha256_test.json";
import rsaPss from "../fixtures/wycheproof/rsa_pss_2048_sha384_mgf1_48_test.json";
import { verifyPss } from "../../src/domain/age-tokens/blind-rsa";
import { openAesGcm } from "../../src/digital-id/aes-gcm";
import { derSignatureToRaw, importSpki, verifyRaw, type Curve, type Hash } from "../../src/digital-id/ecdsa";
import { diffieHellmanP256, hkdfExpand, hkdfExtract, recipientKey } from "../../src/digital-id/hpke";

// Hundreds of Web Crypto calls per test: on a shared two-core machine that is seconds, not milliseconds.
vi.setConfig({ testTimeout: 120_000 });

type Vector = { tcId: number; comment: string; flags: string[]; result: "valid" | "invalid" | "acceptable" };
type Suite<T> = { testGroups: ({ tests: (Vector & T)[] } & Record<string, unknown>)[] };

const hex = (text: string) => Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** Runs every vector; returns the ids where the project and Wycheproof differ, by outcome. */
async function run<T>(suite: Suite<T>, check: (group: Record<string, unknown>, vector: Vector & T) => Promise<boolean>) {
  const disagreements: { tcId: number; expected: string; flags: string[]; comment: string }[] = [];
  let count = 0;
  for (const group of suite.testGroups) {
    for (const vector of group.tests) {
      count++;
      let accepted: boolean;
      try {
        accepted = await check(group, vector);
      } catch {
        accepted = false;
      }
      if (vector.result === "acceptable") continue;
      if (accepted !== (vector.result === "valid"))
        disagreements.push({ tcId: vector.tcId, expected: vector.result, flags: vector.flags, comment: vector.comment });
    }
  }
  return { count, disagreements };
}

const ECDSA: {
  name: string;
  curve: Curve;
  hash: Hash;
  der: Suite<{ msg: string; sig: string }>;
  p1363: Suite<{ msg: string; sig: string }>;
}[] = [
  { name: "P-256 / SHA-256 (ES256)", curve: "P-256", hash: "SHA-256", der: p256Der as never, p1363: p256P1363 as never },
  { name: "P-384 / SHA-384 (ES384)", curve: "P-384", hash: "SHA-384", der: p384Der as never, p1363: p384P1363 as never },
  { name: "P-521 / SHA-512 (ES512)", curve: "P-521", hash: "SHA-512", der: p521Der as never, p1363: p521P1363 as never },
];

describe.each(ECDSA)("Wycheproof ECDSA $name", ({ curve, hash, der, p1363 }) => {
  const keyOf = (group: Record<string, unknown>) => importSpki(hex(group.publicKeyDer as string), curve);

  it("r||s (COSE_Sign1, JWS) through verifyRaw: every vector as Wycheproof says", async () => {
    const { count, disagreements } = await run(p1363, async (group, vector) =>
      verifyRaw(await keyOf(group), hash, hex(vector.sig), hex(vector.msg)),
    );
    expect(count).toBeGreaterThan(200);
    expect(disagreements).toStrictEqual([]);
  });

  it("DER (X.509 certificates) through derSignatureToRaw and verifyRaw: every vector as Wycheproof says (strict DER)", async () => {
    const { count, disagreements } = await run(der, async (group, vector) =>
      verifyRaw(await keyOf(group), hash, derSignatureToRaw(hex(vector.sig), curve), hex(vector.msg)),
    );
    expect(count).toBeGreaterThan(300);
    expect(disagreements).toStrictEqual([]);
  });
});

describe("Wycheproof ECDH P-256 (public keys as points, as HPKE's enc carries them)", () => {
  it("HPKE's Diffie-Hellman: the scalar imported as the Annex C private key, the shared secret as Wycheproof says", async () => {
    const { count, disagreements } = await run(
      ecdh as unknown as Suite<{ public: string; private: string; shared: string }>,
      async (_group, vector) => {
        // Wycheproof writes the scalar as a signed integer; the Annex C key is the 32-byte scalar.
        const scalar = hex(vector.private.padStart(64, "0").slice(-64));
        const { privateKey } = await recipientKey(scalar);
        return toHex(await diffieHellmanP256(privateKey, hex(vector.public))) === vector.shared;
      },
    );
    expect(count).toBe(355);
    expect(disagreements).toStrictEqual([]);
  });
});

describe("Wycheproof HKDF-SHA256 (HPKE's key schedule)", () => {
  it("Extract then Expand, for every vector of at most one block (HPKE asks 12, 16 and 32 bytes)", async () => {
    const oneBlock = {
      testGroups: (hkdf as unknown as Suite<{ ikm: string; salt: string; info: string; size: number; okm: string }>).testGroups.map(
        (group) => ({ ...group, tests: group.tests.filter((t) => t.size <= 32) }),
      ),
    };
    const { count, disagreements } = await run(
      oneBlock,
      async (_group, vector) =>
        toHex(await hkdfExpand(await hkdfExtract(hex(vector.salt), hex(vector.ikm)), hex(vector.info), vector.size)) === vector.okm,
    );
    expect(count).toBeGreaterThan(20);
    expect(disagreements).toStrictEqual([]);
  });

  it("refuses to expand beyond one block rather than answer wrongly", async () => {
    await expect(hkdfExpand(new Uint8Array(32), new Uint8Array(0), 33)).rejects.toThrow(RangeError);
  });
});

describe("Wycheproof AES-GCM (the JWE's and HPKE's opening, 128-bit tags)", () => {
  type GcmVector = { key: string; iv: string; aad: string; msg: string; ct: string; tag: string };
  const open = async (_group: unknown, vector: GcmVector) =>
    toHex(await openAesGcm(hex(vector.key), hex(vector.iv), Uint8Array.from([...hex(vector.ct), ...hex(vector.tag)]), hex(vector.aad))) ===
    vector.msg;
  const byIvSize = (twelveBytes: boolean) => ({
    testGroups: (aesGcm as unknown as Suite<GcmVector>).testGroups.filter((group) => (group.ivSize === 96) === twelveBytes),
  });

  it("96-bit nonces (the only size the JWE's A128GCM and HPKE use): every vector as Wycheproof says", async () => {
    const { count, disagreements } = await run(byIvSize(true), open);
    expect(count).toBeGreaterThan(150);
    expect(disagreements).toStrictEqual([]);
  });

  it("any other nonce size is refused, valid vector or not (RFC 7518 §5.3 requires 96 bits; runtimes differ beyond that)", async () => {
    let count = 0;
    for (const group of byIvSize(false).testGroups) {
      for (const vector of group.tests) {
        count++;
        await expect(open(group, vector), `tcId ${vector.tcId}`).rejects.toThrow();
      }
    }
    expect(count).toBeGreaterThan(100);
  });
});

describe("Wycheproof RSASSA-PSS 2048, SHA-384, MGF1-SHA-384, salt 48 (age-token verification)", () => {
  it("verifyPss: every vector as Wycheproof says", async () => {
    const suite = rsaPss as unknown as Suite<{ msg: string; sig: string }>;
    const { count, disagreements } = await run(suite, async (group, vector) => {
      const key = await crypto.subtle.importKey("spki", hex(group.publicKeyDer as string), { name: "RSA-PSS", hash: "SHA-384" }, false, [
        "verify",
      ]);
      return verifyPss(key, hex(vector.msg), hex(vector.sig));
    });
    expect(count).toBe(141);
    expect(disagreements).toStrictEqual([]);
  });
});
