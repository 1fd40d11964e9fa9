// workerd's two Web Crypto extensions the age tokens use, for Node, so the bench can time them outside
// workerd (where timers stand still during CPU work): "RSA-RAW", the raw RSASP1 a blind signature needs
// (src/domain/age-tokens/blind-rsa.ts), is m^d mod n, exactly OpenSSL's private-key operation without
// padding (RSA_NO_PADDING, with the CRT speed-up BoringSSL uses in workerd); `timingSafeEqual` is Node's
// own. Installed by the bench only.
import { constants, createPrivateKey, privateDecrypt, timingSafeEqual, type KeyObject } from "node:crypto";

type RawKey = { rsaRaw: KeyObject };
const subtle = globalThis.crypto.subtle;
const importKey = subtle.importKey.bind(subtle);
const sign = subtle.sign.bind(subtle);
const bytes = (v: ArrayBufferView | ArrayBuffer) =>
  ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(v);
const isRsaRaw = (algorithm: unknown) =>
  typeof algorithm === "object" && algorithm !== null && (algorithm as { name?: string }).name === "RSA-RAW";

export function installWorkerdCrypto(): void {
  Object.assign(subtle, {
    timingSafeEqual: (a: ArrayBufferView | ArrayBuffer, b: ArrayBufferView | ArrayBuffer) => timingSafeEqual(bytes(a), bytes(b)),
    importKey: (format: string, keyData: unknown, algorithm: unknown, extractable: boolean, usages: KeyUsage[]) =>
      isRsaRaw(algorithm) && format === "pkcs8"
        ? Promise.resolve({
            rsaRaw: createPrivateKey({ key: Buffer.from(keyData as Uint8Array), format: "der", type: "pkcs8" }),
          } satisfies RawKey)
        : importKey(format as "pkcs8", keyData as BufferSource, algorithm as AlgorithmIdentifier, extractable, usages),
    sign: (algorithm: unknown, key: CryptoKey | RawKey, data: BufferSource) =>
      isRsaRaw(algorithm)
        ? Promise.resolve(
            new Uint8Array(
              privateDecrypt({ key: (key as RawKey).rsaRaw, padding: constants.RSA_NO_PADDING }, Buffer.from(data as Uint8Array)),
            ).buffer,
          )
        : sign(algorithm as AlgorithmIdentifier, key as CryptoKey, data),
  });
}
