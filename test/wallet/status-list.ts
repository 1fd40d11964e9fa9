// TEST ONLY. A status issuer (IETF Token Status List, draft-ietf-oauth-status-list): packs statuses into
// the list's bit array (index i at bits i*bits.., least significant first), compresses it with zlib
// DEFLATE and signs it as a Status List Token, a JWT (`typ: statuslist+jwt`, jose) for SD-JWT VCs or a
// CWT (COSE_Sign1 with `type` 16 `application/statuslist+cwt`, cbor-x) for mdocs, with the signer's
// certificate in `x5c` / x5chain. Knobs make the lists the verifier must refuse.
import { SignJWT } from "jose";
import type { Issuer } from "./certificates";
import { base64url, encode } from "./cbor";

export const STATUS = { VALID: 0, INVALID: 1, SUSPENDED: 2 } as const;

export type StatusListOptions = {
  format: "jwt" | "cwt";
  signer: Issuer;
  /** `sub`: the URI the list is published at (a credential's `status_list.uri`). */
  uri: string;
  /** The status of each index; indices not given are VALID. */
  statuses: Record<number, number>;
  /** Entries in the list (at least every index in `statuses`); 1,000 by default. */
  size?: number;
  bits?: 1 | 2 | 4 | 8;
  /** Seconds since the epoch; `iat` an hour ago and `exp` a day ahead by default, `null` leaves `exp` out. */
  issuedAt?: number;
  expiresAt?: number | null;
  ttl?: number;
  /** Sign with this key instead of the signer certificate's (a forged list). */
  signingKey?: CryptoKey;
  /** Compressed bytes to carry as `lst` instead of the packed statuses (a list built by hand). */
  compressedList?: Uint8Array;
  /** The JWT's `typ` or the CWT's `type` (16) instead of the status list's own (another kind of token). */
  type?: string;
};

/** The bit array of `statuses`, `bits` per entry, least significant bits first (the draft's section 4.1). */
export function packStatuses(statuses: Record<number, number>, size: number, bits: number): Uint8Array {
  const bytes = new Uint8Array(Math.ceil((size * bits) / 8));
  for (const [index, status] of Object.entries(statuses)) {
    const position = Number(index) * bits;
    bytes[position >> 3]! |= status << (position & 7);
  }
  return bytes;
}

/** zlib DEFLATE (RFC 1950), as the list's `lst` carries it. */
export async function deflate(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** The Status List Token: the compact JWT's text, or the CWT's bytes. */
export async function issueStatusList(options: StatusListOptions): Promise<string | Uint8Array<ArrayBuffer>> {
  const bits = options.bits ?? 1;
  const maxIndex = Math.max(0, ...Object.keys(options.statuses).map(Number));
  const lst = options.compressedList ?? (await deflate(packStatuses(options.statuses, Math.max(options.size ?? 1000, maxIndex + 1), bits)));
  const now = Math.floor(Date.now() / 1000);
  const iat = options.issuedAt ?? now - 3600;
  const exp = options.expiresAt === undefined ? now + 86_400 : options.expiresAt;
  const key = options.signingKey ?? options.signer.privateKey;
  if (options.format === "jwt") {
    const claims: Record<string, unknown> = { sub: options.uri, iat, status_list: { bits, lst: base64url(lst) } };
    if (exp !== null) claims.exp = exp;
    if (options.ttl !== undefined) claims.ttl = options.ttl;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", typ: options.type ?? "statuslist+jwt", x5c: [toBase64(options.signer.certificate)] })
      .sign(key);
  }
  const claims = new Map<number, unknown>([
    [2, options.uri],
    [6, iat],
    [
      65533,
      new Map<string, unknown>([
        ["bits", bits],
        ["lst", lst],
      ]),
    ],
  ]);
  if (exp !== null) claims.set(4, exp);
  if (options.ttl !== undefined) claims.set(65534, options.ttl);
  const protectedBytes = encode(
    new Map<number, unknown>([
      [1, -7],
      [16, options.type ?? "application/statuslist+cwt"],
    ]),
  );
  const payload = encode(claims);
  const toBeSigned = encode(["Signature1", protectedBytes, new Uint8Array(0), payload]);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, toBeSigned));
  return encode([protectedBytes, new Map([[33, options.signer.certificate]]), payload, signature]);
}
