// CBOR for mdoc structures (RFC 8949): decoding through @oslojs/cbor, which the Worker already ships for
// passkeys and which refuses malformed input, into plain values (Map for maps, Uint8Array for byte
// strings, Tagged for tags, which mdocs need kept: 24 embedded CBOR, 0 and 1004 dates; CborFloat for
// floats, kept apart from integers); and a small encoder, since that library only decodes. Before the
// library sees them, the bytes are walked once, head by head, to refuse cheaply what no mdoc structure
// is: indefinite lengths (ISO/IEC 18013-5 encodes definite lengths), nesting deeper than MAX_DEPTH and
// more than MAX_ITEMS items (docs/digital-id.md, "Work per answer"). Encoding follows the core
// deterministic rules for what we build ourselves (definite lengths, shortest heads); keys keep the
// order given.
import {
  CBORArray,
  CBORByteString,
  CBORFloat16,
  CBORFloat32,
  CBORFloat64,
  CBORMap,
  CBORNegativeInteger,
  CBORPositiveInteger,
  CBORSimple,
  CBORTagged,
  CBORTextString,
  decodeCBORNoLeftoverBytes,
  type CBORValue,
} from "@oslojs/cbor";

export class Tagged {
  constructor(
    readonly tag: number,
    readonly value: Cbor,
  ) {}
}

/** A float: never read where the CDDL asks for an integer (a `status` of 0.0 or -0.0 is not 0). */
export class CborFloat {
  constructor(readonly value: number) {}
}

export type Cbor = number | string | boolean | null | undefined | Uint8Array | Cbor[] | Map<string | number, Cbor> | Tagged | CborFloat;

/** Structures nest a few levels (DeviceResponse > documents > issuerSigned > nameSpaces > items). */
const MAX_DEPTH = 16;
/**
 * Items in one decoded structure: a DeviceResponse of two documents with 16 items each (about 200), or
 * an MSO with the digests of a full mDL, holds a few hundred at most (each embedded structure is
 * decoded on its own). 38 copies of a document hold about 1,500: refused by the walk, before decoding.
 */
export const MAX_ITEMS = 1024;

export class CborError extends Error {}

function toNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw new CborError("integer out of range");
  return Number(value);
}

function plain(value: CBORValue): Cbor {
  if (value instanceof CBORPositiveInteger) return toNumber(value.value);
  if (value instanceof CBORNegativeInteger) return toNumber(value.value);
  // ignoreBOM keeps a leading U+FEFF as the character it is (false would drop it): "\uFEFFa" is not "a".
  if (value instanceof CBORTextString) return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(value.value);
  if (value instanceof CBORByteString) return value.value;
  if (value instanceof CBORArray) return value.elements.map(plain);
  if (value instanceof CBORTagged) return new Tagged(toNumber(value.tagNumber), plain(value.value));
  if (value instanceof CBORFloat16 || value instanceof CBORFloat32 || value instanceof CBORFloat64) return new CborFloat(value.toNumber());
  if (value instanceof CBORSimple) {
    if (value.value === 20) return false;
    if (value.value === 21) return true;
    if (value.value === 22) return null;
    if (value.value === 23) return undefined;
    throw new CborError("unknown simple value");
  }
  if (value instanceof CBORMap) {
    const map = new Map<string | number, Cbor>();
    for (const [key, entry] of value.entries) {
      const name = plain(key);
      if (typeof name !== "string" && typeof name !== "number") throw new CborError("map key is not text or an integer");
      if (map.has(name)) throw new CborError("duplicate map key");
      map.set(name, plain(entry));
    }
    return map;
  }
  throw new CborError("unexpected CBOR item");
}

/** Bytes of each head argument by additional information 24-27; 28-30 are reserved, 31 is indefinite. */
const ARGUMENT_BYTES: Record<number, number> = { 24: 1, 25: 2, 26: 4, 27: 8 };

/**
 * Walks the heads of one item (and all it contains) without building anything: a few operations per
 * byte, so that an answer of nested junk is refused before the decoder allocates for it.
 */
function checkShape(bytes: Uint8Array): void {
  let offset = 0;
  let items = 0;
  const argument = (additional: number): number => {
    if (additional < 24) return additional;
    const size = ARGUMENT_BYTES[additional];
    if (size === undefined) throw new CborError(additional === 31 ? "indefinite length" : "reserved additional information");
    if (offset + size > bytes.length) throw new CborError("truncated");
    let value = 0;
    for (let i = 0; i < size; i++) value = value * 256 + bytes[offset++]!;
    return value;
  };
  const item = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new CborError("nested too deep");
    if (++items > MAX_ITEMS) throw new CborError("too many items");
    const initial = bytes[offset++];
    if (initial === undefined) throw new CborError("truncated");
    const major = initial >> 5;
    const value = argument(initial & 0x1f);
    if (major === 2 || major === 3) {
      if (value > bytes.length - offset) throw new CborError("truncated");
      offset += value;
    } else if (major === 4 || major === 5) {
      const count = major === 5 ? value * 2 : value;
      if (count > bytes.length - offset) throw new CborError("truncated");
      for (let i = 0; i < count; i++) item(depth + 1);
    } else if (major === 6) item(depth + 1);
  };
  item(0);
}

/** One CBOR item filling all of `bytes`; throws CborError (or the library's error) when it is not one. */
export function decodeCbor(bytes: Uint8Array): Cbor {
  checkShape(bytes);
  return plain(decodeCBORNoLeftoverBytes(bytes, MAX_DEPTH));
}

function head(major: number, length: number, out: number[]): void {
  if (!Number.isSafeInteger(length) || length < 0) throw new CborError("cannot encode this number");
  const type = major << 5;
  if (length < 24) out.push(type | length);
  else if (length < 0x100) out.push(type | 24, length);
  else if (length < 0x10000) out.push(type | 25, length >> 8, length & 0xff);
  else if (length < 0x100000000) out.push(type | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
  else {
    const high = Math.floor(length / 0x100000000);
    out.push(type | 27, (high >>> 24) & 0xff, (high >> 16) & 0xff, (high >> 8) & 0xff, high & 0xff);
    const low = length >>> 0;
    out.push((low >>> 24) & 0xff, (low >> 16) & 0xff, (low >> 8) & 0xff, low & 0xff);
  }
}

function bytesOf(bytes: Uint8Array, out: number[]): void {
  for (const byte of bytes) out.push(byte);
}

function write(value: unknown, out: number[]): void {
  if (value === false) out.push(0xf4);
  else if (value === true) out.push(0xf5);
  else if (value === null) out.push(0xf6);
  else if (value === undefined) out.push(0xf7);
  else if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new CborError("only integers are encoded");
    if (value >= 0) head(0, value, out);
    else head(1, -1 - value, out);
  } else if (typeof value === "string") {
    const text = new TextEncoder().encode(value);
    head(3, text.length, out);
    bytesOf(text, out);
  } else if (value instanceof Uint8Array) {
    head(2, value.length, out);
    bytesOf(value, out);
  } else if (Array.isArray(value)) {
    head(4, value.length, out);
    for (const item of value) write(item, out);
  } else if (value instanceof Tagged) {
    head(6, value.tag, out);
    write(value.value, out);
  } else if (value instanceof Map) {
    head(5, value.size, out);
    for (const [key, item] of value) {
      write(key, out);
      write(item, out);
    }
  } else if (typeof value === "object") {
    const entries = Object.entries(value);
    head(5, entries.length, out);
    for (const [key, item] of entries) {
      write(key, out);
      write(item, out);
    }
  } else throw new CborError("cannot encode this value");
}

/** Encodes a value; plain objects are maps with text keys, in their own order. */
export function encodeCbor(value: unknown): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  write(value, out);
  return Uint8Array.from(out);
}

/** `#6.24(bstr .cbor X)`: the embedded-CBOR wrapping mdocs use wherever bytes are signed or digested. */
export const embedded = (value: unknown): Tagged => new Tagged(24, encodeCbor(value));
