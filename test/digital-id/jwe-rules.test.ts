// The OpenID4VP encrypted response (src/digital-id/jwe.ts) and the text readers under it (base64.ts):
// what a wallet may send (with or without `kid`, with `apu` and `apv`) opens, and every other header,
// part or key is refused with DIGITAL_ID_INVALID and a message naming the part at fault. The JWEs are
// sealed here (ECDH-ES, Concat KDF, A128GCM, written from RFC 7518 §4.6) so that each header field can be
// set on its own: jose, which the test wallet uses, writes the header itself and checks it back.
import { CompactEncrypt, compactDecrypt, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import { readBase64, readBase64Url } from "../../src/digital-id/base64";
import { decryptEcdhEsJwe } from "../../src/digital-id/jwe";
import { newEncryptionKey } from "../../src/digital-id/keys";
import { fromUtf8, utf8 } from "../../src/lib/encoding";

const PREFIX = "The digital ID did not verify: ";
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

type Key = JsonWebKey & { kid: string };

async function recipient(kid = "request-key"): Promise<Key> {
  return { ...(await newEncryptionKey()), kid };
}

/** A 32-bit big-endian length, then the bytes (RFC 7518 §4.6.2's OtherInfo fields). */
const lengthPrefixed = (bytes: Uint8Array) => [0, 0, bytes.length >> 8, bytes.length & 0xff, ...bytes];

interface Seal {
  /** Header fields besides `epk` (default: ECDH-ES, A128GCM, the recipient's kid). */
  header?: Record<string, unknown>;
  /** Rewrites the ephemeral public key as the header carries it (the key agreement uses the real one). */
  epk?: (epk: JsonWebKey) => unknown;
  /** PartyUInfo and PartyVInfo as the key derivation uses them (the header carries `header.apu`/`apv`). */
  apu?: Uint8Array;
  apv?: Uint8Array;
}

/** A compact JWE of `plaintext` to `key`'s public half: ECDH-ES with a fresh ephemeral key, Concat KDF, A128GCM. */
async function seal(plaintext: string, key: Key, options: Seal = {}): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const theirs = await crypto.subtle.importKey(
    "jwk",
    { kty: "EC", crv: "P-256", x: key.x, y: key.y },
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const z = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "ECDH", public: theirs } as unknown as Parameters<typeof crypto.subtle.deriveBits>[0],
      pair.privateKey,
      256,
    ),
  );
  const otherInfo = [
    ...lengthPrefixed(utf8("A128GCM")),
    ...lengthPrefixed(options.apu ?? new Uint8Array(0)),
    ...lengthPrefixed(options.apv ?? new Uint8Array(0)),
    0,
    0,
    0,
    128,
  ];
  const cek = new Uint8Array(await crypto.subtle.digest("SHA-256", Uint8Array.from([0, 0, 0, 1, ...z, ...otherInfo]))).slice(0, 16);
  const epk = { kty, crv, x, y };
  const header = { alg: "ECDH-ES", enc: "A128GCM", kid: key.kid, ...options.header, epk: options.epk ? options.epk(epk) : epk };
  const protectedHeader = base64url(utf8(JSON.stringify(header)));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const aesKey = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: utf8(protectedHeader) }, aesKey, utf8(plaintext)),
  );
  return [protectedHeader, "", base64url(iv), base64url(sealed.slice(0, -16)), base64url(sealed.slice(-16))].join(".");
}

/** The plaintext, or the refusal's message (which the problem detail carries). */
async function open(jwe: string, key: Key): Promise<string> {
  try {
    return fromUtf8(await decryptEcdhEsJwe(jwe, key));
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("DIGITAL_ID_INVALID");
    return (error as ApiError).message;
  }
}

const withPart = (jwe: string, index: number, value: string) => jwe.split(".").with(index, value).join(".");

describe("what a wallet seals", () => {
  it("opens, with or without kid, and with apu and apv bound into the key", async () => {
    const key = await recipient();
    expect(await open(await seal("hello", key), key)).toBe("hello");
    expect(await open(await seal("no kid", key, { header: { kid: undefined } }), key)).toBe("no kid");
    const apu = utf8("wallet nonce");
    const apv = utf8("verifier nonce");
    expect(await open(await seal("agreed", key, { apu, apv, header: { apu: base64url(apu), apv: base64url(apv) } }), key)).toBe("agreed");
    // The same header with the KDF run without them: another key, so the tag does not match.
    expect(await open(await seal("unbound", key, { header: { apu: base64url(apu), apv: base64url(apv) } }), key)).toBe(
      `${PREFIX}the response could not be decrypted with this request's key.`,
    );
  });

  it("opens what jose seals, apu and apv included, and jose opens what this test seals", async () => {
    const key = await recipient();
    const publicKey = await importJWK({ kty: "EC", crv: "P-256", x: key.x, y: key.y }, "ECDH-ES");
    const jwe = await new CompactEncrypt(utf8("from jose"))
      .setProtectedHeader({ alg: "ECDH-ES", enc: "A128GCM" })
      .setKeyManagementParameters({ apu: utf8("Alice"), apv: utf8("Bob") })
      .encrypt(publicKey);
    expect(
      JSON.parse(fromUtf8(Uint8Array.from(atob(jwe.split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)))),
    ).toMatchObject({
      apu: base64url(utf8("Alice")),
      apv: base64url(utf8("Bob")),
    });
    expect(await open(jwe, key)).toBe("from jose");
    const privateKey = await importJWK({ kty: "EC", crv: "P-256", x: key.x, y: key.y, d: key.d }, "ECDH-ES");
    expect(fromUtf8((await compactDecrypt(await seal("to jose", key), privateKey)).plaintext)).toBe("to jose");
  });
});

describe("what is refused, naming the part at fault", () => {
  it("another shape than a compact JWE with direct key agreement", async () => {
    const key = await recipient();
    const good = await seal("x", key);
    const message = `${PREFIX}the response is not a compact JWE with direct key agreement.`;
    expect(await open(good.split(".").slice(0, 4).join("."), key)).toBe(message);
    expect(await open(`${good}.AAAA`, key)).toBe(message);
    // An encrypted key (key wrapping) in an otherwise good JWE: not the direct agreement the request asks for.
    expect(await open(withPart(good, 1, "AAAAAAAAAAAAAAAAAAAAAA"), key)).toBe(message);
  });

  it("a header that is not base64url, not JSON, or not a JSON object", async () => {
    const key = await recipient();
    const good = await seal("x", key);
    expect(await open(withPart(good, 0, "e30!"), key)).toBe(`${PREFIX}the encrypted response's header is not base64url.`);
    expect(await open(withPart(good, 0, base64url(utf8("{alg"))), key)).toBe(`${PREFIX}the encrypted response's header is not JSON.`);
    for (const json of ["[]", "1", "null", '"ECDH-ES"']) {
      expect(await open(withPart(good, 0, base64url(utf8(json))), key), json).toBe(
        `${PREFIX}the encrypted response's header is not a JSON object.`,
      );
    }
  });

  it("another algorithm or encryption, even when the content would open", async () => {
    const key = await recipient();
    const message = `${PREFIX}the response is not encrypted with ECDH-ES and AES-GCM.`;
    for (const header of [
      { alg: "ECDH-ES+A128KW" },
      { alg: "dir" },
      { alg: undefined },
      { enc: ["A128GCM"] },
      { enc: "A256GCM" },
      { enc: "toString" },
    ]) {
      expect(await open(await seal("x", key, { header }), key), JSON.stringify(header)).toBe(message);
    }
  });

  it("another request's key: another kid, or another key under the same kid", async () => {
    const key = await recipient();
    expect(await open(await seal("x", key, { header: { kid: "another-request" } }), key)).toBe(
      `${PREFIX}the response is encrypted to another request's key.`,
    );
    expect(await open(await seal("x", await recipient(key.kid)), key)).toBe(
      `${PREFIX}the response could not be decrypted with this request's key.`,
    );
  });

  it("an ephemeral key that is not a P-256 public key, even when its coordinates are", async () => {
    const key = await recipient();
    const message = `${PREFIX}the response's ephemeral key is not a P-256 key.`;
    const rewrites: ((epk: JsonWebKey) => unknown)[] = [
      () => null,
      () => "P-256",
      (epk) => ({ ...epk, kty: "OKP" }),
      (epk) => ({ ...epk, crv: "P-384" }),
      (epk) => ({ ...epk, x: undefined }),
      (epk) => ({ ...epk, y: undefined }),
      (epk) => ({ ...epk, y: 1 }),
    ];
    for (const rewrite of rewrites) expect(await open(await seal("x", key, { epk: rewrite }), key)).toBe(message);
    // Well-formed but not on the curve, or not this wallet's: the agreement fails.
    expect(await open(await seal("x", key, { epk: (epk) => ({ ...epk, x: epk.y }) }), key)).toBe(
      `${PREFIX}the response could not be decrypted with this request's key.`,
    );
  });

  it("a part that is not base64url, each named", async () => {
    const key = await recipient();
    const good = await seal("x", key);
    expect(await open(await seal("x", key, { header: { apu: "a+b" } }), key)).toBe(
      `${PREFIX}the encrypted response's apu is not base64url.`,
    );
    expect(await open(await seal("x", key, { header: { apv: "a+b" } }), key)).toBe(
      `${PREFIX}the encrypted response's apv is not base64url.`,
    );
    expect(await open(withPart(good, 2, "A"), key)).toBe(`${PREFIX}the encrypted response's iv is not base64url.`);
    expect(await open(withPart(good, 3, "!"), key)).toBe(`${PREFIX}the encrypted response's ciphertext is not base64url.`);
    expect(await open(withPart(good, 4, "AAAA="), key)).toBe(`${PREFIX}the encrypted response's tag is not base64url.`);
  });

  it("a changed ciphertext, tag, nonce or header: the tag does not match", async () => {
    const key = await recipient();
    const good = await seal("a longer message", key);
    const flip = (part: string) => (part[0] === "A" ? "B" : "A") + part.slice(1);
    const message = `${PREFIX}the response could not be decrypted with this request's key.`;
    for (const index of [2, 3, 4])
      expect(await open(withPart(good, index, flip(good.split(".")[index]!)), key), String(index)).toBe(message);
    expect(await open(withPart(good, 2, base64url(new Uint8Array(16))), key)).toBe(message);
  });
});

describe("base64.ts", () => {
  const refusal = (run: () => unknown) => {
    try {
      run();
      return "accepted";
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return (error as ApiError).message;
    }
  };

  it("reads unpadded base64url and nothing around it", () => {
    expect([...readBase64Url("AQID-_8", "the x")]).toStrictEqual([1, 2, 3, 251, 255]);
    for (const text of ["!AQID", "AQID!", "AQ ID", "AQID=", "AQIDB"]) {
      expect(
        refusal(() => readBase64Url(text, "the x")),
        text,
      ).toBe(`${PREFIX}the x is not base64url.`);
    }
  });

  it("reads standard base64, padded or not, and refuses misplaced padding and other alphabets", () => {
    expect([...readBase64("AQID+/8=", "the x")]).toStrictEqual([1, 2, 3, 251, 255]);
    expect([...readBase64("AQID+/8", "the x")]).toStrictEqual([1, 2, 3, 251, 255]);
    expect([...readBase64("AQ==", "the x")]).toStrictEqual([1]);
    for (const text of ["AQID-_8=", "AQ=", "AQIDB", "=", "", "AQ=A"]) {
      expect(
        refusal(() => readBase64(text, "the x")),
        text,
      ).toBe(`${PREFIX}the x is not base64.`);
    }
  });
});
