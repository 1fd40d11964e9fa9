// workerd's two Web Crypto extensions the age tokens use, for Node: "RSA-RAW", the raw RSASP1 a blind
// signature needs (src/domain/age-tokens/blind-rsa.ts), is m^d mod n, exactly OpenSSL's private-key
// operation without padding (RSA_NO_PADDING, with the CRT speed-up BoringSSL uses in workerd; OpenSSL
// refuses m ≥ n as BoringSSL does); `timingSafeEqual` is Node's own (it throws for two lengths; the
// service compares two SHA-256 digests). Installed by the bench (test/bench/crypto-cpu.ts: workerd's timers stand still during
// CPU work) and by StrykerJS's Node run (test/stryker/setup.ts). The service never runs on this: `npm
// test` runs the same tests in workerd, and RFC 9474's vector (test/age-tokens/known-answers.test.ts)
// checks that this is RSASP1.

// Node's module, loaded untyped: this file type-checks with the Workers types (the root tsconfig).
const { constants, createPrivateKey, privateDecrypt, timingSafeEqual } = await import(/* @vite-ignore */ "node:crypto" as string);

/** A key imported as RSA-RAW: what workerd's CryptoKey shows of it, and Node's private key. */
type RawKey = { type: "private"; extractable: boolean; algorithm: { name: "RSA-RAW" }; usages: string[] };
const nodeKeys = new WeakMap<object, unknown>();
const subtle = crypto.subtle as SubtleCrypto & Record<string, unknown>;
const importKey = subtle.importKey.bind(subtle) as (...args: unknown[]) => Promise<CryptoKey>;
const sign = subtle.sign.bind(subtle) as (...args: unknown[]) => Promise<ArrayBuffer>;
const bytes = (v: ArrayBufferView | ArrayBuffer) =>
  ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(v);
const isRsaRaw = (algorithm: unknown) =>
  typeof algorithm === "object" && algorithm !== null && (algorithm as { name?: string }).name === "RSA-RAW";

export function installWorkerdCrypto(): void {
  Object.assign(subtle, {
    timingSafeEqual: (a: ArrayBufferView | ArrayBuffer, b: ArrayBufferView | ArrayBuffer) => timingSafeEqual(bytes(a), bytes(b)),
    importKey: (format: string, keyData: ArrayBufferView, algorithm: unknown, extractable: boolean, usages: string[]) => {
      if (!isRsaRaw(algorithm) || format !== "pkcs8") return importKey(format, keyData, algorithm, extractable, usages);
      const key: RawKey = Object.freeze({ type: "private", extractable, algorithm: { name: "RSA-RAW" as const }, usages: [...usages] });
      nodeKeys.set(key, createPrivateKey({ key: bytes(keyData), format: "der", type: "pkcs8" }));
      return Promise.resolve(key);
    },
    sign: (algorithm: unknown, key: CryptoKey | RawKey, data: ArrayBufferView) => {
      if (!isRsaRaw(algorithm)) return sign(algorithm, key, data);
      const nodeKey = nodeKeys.get(key);
      if (nodeKey === undefined) return Promise.reject(new TypeError("RSA-RAW: not a key imported as RSA-RAW"));
      const signature: Uint8Array = privateDecrypt({ key: nodeKey, padding: constants.RSA_NO_PADDING }, bytes(data));
      return Promise.resolve(new Uint8Array(signature).buffer);
    },
  });
}
