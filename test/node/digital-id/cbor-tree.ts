// TEST ONLY. A CBOR tree an attacker can edit: decoded with cbor-x (independent of the service's own
// decoder), re-encoded by the small encoder below, which can also write what a well-behaved encoder never
// does (raw items, indefinite lengths, floats, duplicate map keys), so that the mutation tests reach every
// encoding a wallet could send.
import { Encoder, Tag } from "cbor-x";

const codec = new Encoder({ useRecords: false, mapsAsObjects: false, tagUint8Array: false, variableMapSize: true });

export { Tag };

/** Bytes written as they are, in place of an item. */
export class Raw {
  constructor(readonly bytes: Uint8Array) {}
}

/** A map written with these entries in this order, repeated keys included. */
export class Entries {
  constructor(readonly entries: [unknown, unknown][]) {}
}

/** A container or string written with indefinite length (RFC 8949 §3.2.2). */
export class Indefinite {
  constructor(readonly value: unknown[] | Map<unknown, unknown> | Uint8Array | string) {}
}

export type Node = unknown;

export const decodeTree = (bytes: Uint8Array): Node => codec.decode(bytes);

function head(major: number, length: number, out: number[]): void {
  const type = major << 5;
  if (length < 24) out.push(type | length);
  else if (length < 0x100) out.push(type | 24, length);
  else if (length < 0x10000) out.push(type | 25, length >> 8, length & 0xff);
  else out.push(type | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
}

function write(value: Node, out: number[]): void {
  if (value instanceof Raw) out.push(...value.bytes);
  else if (value === false) out.push(0xf4);
  else if (value === true) out.push(0xf5);
  else if (value === null) out.push(0xf6);
  else if (value === undefined) out.push(0xf7);
  else if (typeof value === "number") {
    if (Number.isInteger(value) && !Object.is(value, -0)) {
      if (value >= 0) head(0, value, out);
      else head(1, -1 - value, out);
    } else {
      const bytes = new Uint8Array(9);
      bytes[0] = 0xfb;
      new DataView(bytes.buffer).setFloat64(1, value);
      out.push(...bytes);
    }
  } else if (typeof value === "string") {
    const text = new TextEncoder().encode(value);
    head(3, text.length, out);
    out.push(...text);
  } else if (value instanceof Uint8Array) {
    head(2, value.length, out);
    out.push(...value);
  } else if (Array.isArray(value)) {
    head(4, value.length, out);
    for (const item of value) write(item, out);
  } else if (value instanceof Tag) {
    head(6, value.tag, out);
    write(value.value, out);
  } else if (value instanceof Map) {
    head(5, value.size, out);
    for (const [key, item] of value) {
      write(key, out);
      write(item, out);
    }
  } else if (value instanceof Entries) {
    head(5, value.entries.length, out);
    for (const [key, item] of value.entries) {
      write(key, out);
      write(item, out);
    }
  } else if (value instanceof Indefinite) {
    const inner = value.value;
    if (Array.isArray(inner)) {
      out.push(0x9f);
      for (const item of inner) write(item, out);
    } else if (inner instanceof Map) {
      out.push(0xbf);
      for (const [key, item] of inner) {
        write(key, out);
        write(item, out);
      }
    } else if (inner instanceof Uint8Array) {
      out.push(0x5f);
      const half = inner.length >> 1;
      write(inner.subarray(0, half), out);
      write(inner.subarray(half), out);
    } else {
      out.push(0x7f);
      const half = inner.length >> 1;
      write(inner.slice(0, half), out);
      write(inner.slice(half), out);
    }
    out.push(0xff);
  } else if (value instanceof Date) {
    write(new Tag(value.toISOString().replace(/\.\d{3}Z$/, "Z"), 0), out);
  } else throw new Error(`cannot encode ${String(value)}`);
}

export function encodeTree(value: Node): Uint8Array<ArrayBuffer> {
  const out: number[] = [];
  write(value, out);
  return Uint8Array.from(out);
}

/** A deep copy (byte strings copied too), so that one mutation never leaks into the next. */
export function clone(value: Node): Node {
  if (value instanceof Uint8Array) return Uint8Array.from(value);
  if (Array.isArray(value)) return value.map(clone);
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, clone(item)]));
  if (value instanceof Tag) return new Tag(clone(value.value), value.tag);
  return value;
}

export type Path = (string | number)[];

export function get(root: Node, path: Path): Node {
  let node = root;
  for (const step of path) {
    if (node instanceof Tag) node = node.value;
    node = node instanceof Map ? node.get(step) : Array.isArray(node) ? node[step as number] : undefined;
  }
  return node;
}

/** Replaces the item at `path` (a Tag on the way is looked through, as `get` does). */
export function set(root: Node, path: Path, value: Node): Node {
  if (path.length === 0) return value;
  const parent = get(root, path.slice(0, -1));
  const container = parent instanceof Tag ? parent.value : parent;
  const last = path[path.length - 1]!;
  if (container instanceof Map) container.set(last, value);
  else (container as Node[])[last as number] = value;
  return root;
}

/** Every path in the tree (not inside byte strings), the root first. */
export function paths(root: Node, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  const node = root instanceof Tag ? root.value : root;
  if (node instanceof Map) for (const [key, item] of node) out.push(...paths(item, [...prefix, key as string | number]));
  else if (Array.isArray(node)) for (const [index, item] of node.entries()) out.push(...paths(item, [...prefix, index]));
  return out;
}

export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);
