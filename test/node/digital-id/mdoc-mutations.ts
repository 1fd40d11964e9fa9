// TEST ONLY. Structural mutations of a valid mdoc DeviceResponse, as an attacker who holds a captured
// answer (and other answers, credentials and sessions of their own) can make them without any private key
// of the wallet or the issuer: flips inside every signed span, nil payload slots filled, headers moved
// between protected and unprotected, elements and keys dropped, duplicated and reordered, major types and
// tags changed, indefinite lengths, signatures malleated (high-S, non-minimal DER), and parts swapped in
// from other valid answers. Each mutation names itself, so that a failure says what was accepted.
import fc from "fast-check";
import {
  Entries,
  Indefinite,
  Raw,
  Tag,
  clone,
  decodeTree,
  encodeTree,
  get,
  paths,
  sameBytes,
  set,
  type Node,
  type Path,
} from "./cbor-tree";
import { encode } from "../../wallet/cbor";

/**
 * Mutation classes that are not refused, on purpose: a high-S ECDSA signature is the same signature
 * (docs/digital-id.md and docs/security-privacy.md say why the service accepts it). Every other class of
 * mutation must be refused.
 */
export const ACCEPTED_BY_DECISION: Record<string, string> = {
  "high-s": "ECDSA: a high-S signature is the same signature, accepted as wallets' keystores make both",
};

export type Mutant = { label: string; bytes: Uint8Array<ArrayBuffer>; pending?: string };

const DOC: Path = ["documents", 0];
const ISSUER_AUTH: Path = [...DOC, "issuerSigned", "issuerAuth"];
const DEVICE_SIGNATURE: Path = [...DOC, "deviceSigned", "deviceAuth", "deviceSignature"];

const P256_N = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");
const toBig = (bytes: Uint8Array) => BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") || "0"}`);
const fromBig = (value: bigint, length: number) =>
  Uint8Array.from(
    value
      .toString(16)
      .padStart(length * 2, "0")
      .match(/../g)!,
    (h) => parseInt(h, 16),
  );

/** r || s with s replaced by n - s: the other valid signature of the same message (P-256). */
export function highS(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const half = raw.length / 2;
  const out = Uint8Array.from(raw);
  out.set(fromBig(P256_N - toBig(raw.subarray(half)), half), half);
  return out;
}

type Tlv = { tag: number; header: number; contents: Uint8Array; end: number };
function tlv(bytes: Uint8Array, start: number): Tlv {
  const tag = bytes[start]!;
  let length = bytes[start + 1]!;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[start + 2 + i]!;
    header += count;
  }
  return { tag, header, contents: bytes.subarray(start + header, start + header + length), end: start + header + length };
}
const derLength = (length: number) => (length < 0x80 ? [length] : length < 0x100 ? [0x81, length] : [0x82, length >> 8, length & 0xff]);
const derItem = (tag: number, contents: Uint8Array) => Uint8Array.from([tag, ...derLength(contents.length), ...contents]);
function derChildren(contents: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let offset = 0; offset < contents.length; ) {
    const item = tlv(contents, offset);
    out.push(contents.subarray(offset, item.end));
    offset = item.end;
  }
  return out;
}

/** A certificate with its ECDSA signature rewritten by `rewrite` (r, s as DER INTEGER contents). */
function rewriteCertificateSignature(
  certificate: Uint8Array,
  rewrite: (r: Uint8Array, s: Uint8Array) => [Uint8Array, Uint8Array],
): Uint8Array {
  const [tbs, algorithm, bitString] = derChildren(tlv(certificate, 0).contents) as [Uint8Array, Uint8Array, Uint8Array];
  const signature = tlv(bitString, 0).contents.subarray(1);
  const [r, s] = derChildren(tlv(signature, 0).contents).map((integer) => tlv(integer, 0).contents) as [Uint8Array, Uint8Array];
  const [newR, newS] = rewrite(r, s);
  const newSignature = derItem(0x30, Uint8Array.from([...derItem(0x02, newR), ...derItem(0x02, newS)]));
  return derItem(0x30, Uint8Array.from([...tbs, ...algorithm, ...derItem(0x03, Uint8Array.from([0, ...newSignature]))]));
}
const minimalInteger = (value: bigint) => {
  let bytes = fromBig(value, Math.ceil(value.toString(16).length / 2));
  if (bytes[0]! & 0x80) bytes = Uint8Array.from([0, ...bytes]);
  return bytes;
};

/** The other valid answers whose parts are swapped in. */
export type Donors = {
  label: string;
  bytes: Uint8Array /** A valid answer to this very session: its whole document may replace the answer's. */;
  sameSession?: boolean;
}[];

export type MdocContext = {
  valid: Uint8Array<ArrayBuffer>;
  /** DeviceAuthenticationBytes the valid answer's device signature covers (what a replayer would embed). */
  deviceAuthenticationBytes: Uint8Array;
  donors: Donors;
};

/** Paths of the byte strings whose every byte is covered by a signature or a digest. */
function signedSpans(tree: Node): Path[] {
  const issuerItems = paths(get(tree, [...DOC, "issuerSigned", "nameSpaces"]))
    .filter((p) => p.length === 2)
    .map((p) => [...DOC, "issuerSigned", "nameSpaces", ...p]);
  const x5chain = get(tree, [...ISSUER_AUTH, 1, 33]);
  const certificates = Array.isArray(x5chain) ? x5chain.map((_, i) => [...ISSUER_AUTH, 1, 33, i]) : [[...ISSUER_AUTH, 1, 33]];
  return [
    [...ISSUER_AUTH, 0],
    [...ISSUER_AUTH, 2],
    [...ISSUER_AUTH, 3],
    ...certificates,
    ...issuerItems,
    [...DOC, "deviceSigned", "nameSpaces"],
    [...DEVICE_SIGNATURE, 0],
    [...DEVICE_SIGNATURE, 3],
  ];
}

const bytesAt = (tree: Node, path: Path): Uint8Array => {
  const node = get(tree, path);
  return (node instanceof Tag ? node.value : node) as Uint8Array;
};
const setBytes = (tree: Node, path: Path, bytes: Uint8Array) => {
  const node = get(tree, path);
  set(tree, path, node instanceof Tag ? new Tag(bytes, node.tag) : bytes);
};

const pick = <T>(items: T[], index: number): T => items[index % items.length]!;
const VERSION_TEXT = Uint8Array.from([0x67, ...new TextEncoder().encode("version"), 0x63]);

/** A replacement of another major type for `node` (never the same kind), and whether it is a float equal to it. */
function otherType(node: Node, choice: number): { value: Node; floatForInteger: boolean } {
  const options: Node[] = [
    0,
    1,
    -1,
    24,
    "x",
    new Uint8Array([0]),
    [],
    new Map(),
    true,
    false,
    null,
    undefined,
    new Raw(Uint8Array.of(0xf9, 0x00, 0x00)),
    new Raw(Uint8Array.of(0xf9, 0x80, 0x00)),
    1.5,
    new Tag(new Uint8Array(0), 24),
  ];
  if (typeof node === "string") options.push(new TextEncoder().encode(node));
  if (node instanceof Uint8Array) options.push(new TextDecoder().decode(node));
  const kind = (value: Node) =>
    value instanceof Raw
      ? "float"
      : value instanceof Uint8Array
        ? "bytes"
        : value instanceof Map
          ? "map"
          : Array.isArray(value)
            ? "array"
            : value instanceof Tag
              ? "tag"
              : value === null
                ? "null"
                : typeof value;
  const candidates = options.filter((option) => kind(option) !== kind(node));
  const value = pick(candidates, choice);
  const floatForInteger = value instanceof Raw && node === 0;
  return { value, floatForInteger };
}

/** Every operator, each given the random numbers fast-check draws; returns null where it does not apply. */
const operators: Record<string, (context: MdocContext, a: number, b: number, c: number) => Mutant | null> = {
  flipSignedSpan(context, a, b, c) {
    const tree = decodeTree(context.valid);
    const span = pick(signedSpans(tree), a);
    const bytes = Uint8Array.from(bytesAt(tree, span));
    if (bytes.length === 0) return null;
    const position = b % bytes.length;
    const isCertificate = span.includes(33);
    // Outside a certificate's TBS (its signature algorithm and value), a flip that keeps the same values
    // in another encoding is the strict-DER class; inside the TBS, every flip breaks the issuer's signature.
    const afterTbs =
      isCertificate &&
      position >= derChildren(tlv(bytes, 0).contents)[0]!.byteOffset - bytes.byteOffset + derChildren(tlv(bytes, 0).contents)[0]!.length;
    bytes[position] = bytes[position]! ^ (1 << (c % 8));
    setBytes(tree, span, bytes);
    return {
      label: `flip bit ${c % 8} of byte ${position} in ${span.join(".")}`,
      bytes: encodeTree(tree),
      pending: afterTbs ? "non-minimal-der" : undefined,
    };
  },
  flipAnywhere(context, a, b) {
    const bytes = Uint8Array.from(context.valid);
    const position = a % bytes.length;
    // The DeviceResponse `version` ("1.x" is accepted) is the one unsigned value whose change is harmless.
    const versionAt = bytes.findIndex((_, i) => sameBytes(bytes.subarray(i, i + VERSION_TEXT.length), VERSION_TEXT));
    if (versionAt >= 0 && position >= versionAt + VERSION_TEXT.length && position < versionAt + VERSION_TEXT.length + 3) return null;
    bytes[position] = bytes[position]! ^ ((b % 255) + 1);
    return { label: `xor byte ${position} with ${(b % 255) + 1}`, bytes };
  },
  fillNilPayload(context, a) {
    const tree = decodeTree(context.valid);
    const fillings: [string, Uint8Array][] = [
      ["the DeviceAuthenticationBytes", context.deviceAuthenticationBytes],
      ["empty bytes", new Uint8Array(0)],
      ["the MSO payload", bytesAt(tree, [...ISSUER_AUTH, 2])],
      ["random bytes", crypto.getRandomValues(new Uint8Array(32))],
    ];
    const [what, filling] = pick(fillings, a);
    set(tree, [...DEVICE_SIGNATURE, 2], filling);
    return { label: `device signature payload filled with ${what}`, bytes: encodeTree(tree) };
  },
  moveHeader(context, a) {
    const tree = decodeTree(context.valid);
    const moves: [string, () => void][] = [
      ["issuer alg to unprotected", () => moveToUnprotected(tree, ISSUER_AUTH, 1)],
      ["device alg to unprotected", () => moveToUnprotected(tree, DEVICE_SIGNATURE, 1)],
      ["issuer x5chain to protected", () => moveToProtected(tree, ISSUER_AUTH, 33)],
      [
        "issuer x5chain to the device signature",
        () => {
          const chain = (get(tree, [...ISSUER_AUTH, 1]) as Map<number, Node>).get(33);
          (get(tree, [...ISSUER_AUTH, 1]) as Map<number, Node>).delete(33);
          (get(tree, [...DEVICE_SIGNATURE, 1]) as Map<number, Node>).set(33, chain);
        },
      ],
      ["issuer protected header as a map, not bytes", () => set(tree, [...ISSUER_AUTH, 0], decodeTree(bytesAt(tree, [...ISSUER_AUTH, 0])))],
      [
        "device protected header as a map, not bytes",
        () => set(tree, [...DEVICE_SIGNATURE, 0], decodeTree(bytesAt(tree, [...DEVICE_SIGNATURE, 0]))),
      ],
    ];
    const [what, move] = pick(moves, a);
    move();
    return { label: `move ${what}`, bytes: encodeTree(tree) };
  },
  dropKey(context, a) {
    const tree = decodeTree(context.valid);
    const candidates = paths(tree).filter((p) => p.length > 0 && get(tree, p.slice(0, -1)) instanceof Map);
    const path = pick(candidates, a);
    const parent = get(tree, path.slice(0, -1)) as Map<unknown, unknown>;
    parent.delete(path[path.length - 1]);
    return { label: `drop ${path.join(".")}`, bytes: encodeTree(tree) };
  },
  dropElement(context, a) {
    const tree = decodeTree(context.valid);
    const candidates = arrayElementPaths(tree);
    const path = pick(candidates, a);
    arrayAt(tree, path.slice(0, -1)).splice(path[path.length - 1] as number, 1);
    return { label: `drop element ${path.join(".")}`, bytes: encodeTree(tree) };
  },
  duplicateElement(context, a) {
    const tree = decodeTree(context.valid);
    const path = pick(arrayElementPaths(tree), a);
    const array = arrayAt(tree, path.slice(0, -1));
    const index = path[path.length - 1] as number;
    array.splice(index, 0, clone(array[index]));
    const isDocument = path.length === 2 && path[0] === "documents";
    return {
      label: `duplicate element ${path.join(".")}`,
      bytes: encodeTree(tree),
      pending: isDocument ? "duplicate-document" : undefined,
    };
  },
  duplicateKey(context, a) {
    let tree = decodeTree(context.valid);
    const mapPaths = paths(tree).filter((p) => get(tree, p) instanceof Map && (get(tree, p) as Map<unknown, unknown>).size > 0);
    const path = pick(mapPaths, a);
    const map = get(tree, path) as Map<unknown, unknown>;
    const entries = [...map];
    tree = set(tree, path, new Entries([...entries, entries[0]!]));
    return { label: `repeat the key ${String(entries[0]![0])} of ${path.join(".") || "the DeviceResponse"}`, bytes: encodeTree(tree) };
  },
  reorderElements(context, a, b) {
    const tree = decodeTree(context.valid);
    const arrays = paths(tree).filter((p) => Array.isArray(get(tree, p)) && (get(tree, p) as Node[]).length >= 2);
    if (arrays.length === 0) return null;
    const path = pick(arrays, a);
    const array = get(tree, path) as Node[];
    const i = b % array.length;
    const j = (i + 1 + ((b >> 4) % (array.length - 1))) % array.length;
    if (sameBytes(encodeTree(array[i]), encodeTree(array[j]))) return null;
    [array[i], array[j]] = [array[j], array[i]];
    return { label: `swap elements ${i} and ${j} of ${path.join(".")}`, bytes: encodeTree(tree) };
  },
  changeType(context, a, b) {
    const tree = decodeTree(context.valid);
    const path = pick(
      paths(tree).filter((p) => p.length > 0),
      a,
    );
    const { value, floatForInteger } = otherType(get(tree, path), b);
    set(tree, path, value);
    return {
      label: `replace ${path.join(".")} by ${value instanceof Raw ? "a float" : String(value)}`,
      bytes: encodeTree(tree),
      pending: floatForInteger ? "float-for-integer" : undefined,
    };
  },
  changeTag(context, a, b) {
    const tree = decodeTree(context.valid);
    const all = paths(tree).filter((p) => p.length > 0);
    const path = pick(all, a);
    const node = get(tree, path);
    const tags = [24, 25, 0, 1, 18, 55799, 1004];
    if (node instanceof Tag) {
      const choice = b % (tags.length + 1);
      if (choice === tags.length) set(tree, path, node.value);
      else if (tags[choice] === node.tag) return null;
      else set(tree, path, new Tag(node.value, tags[choice]!));
      return { label: `${choice === tags.length ? "untag" : `retag ${tags[choice]}`} ${path.join(".")}`, bytes: encodeTree(tree) };
    }
    const tag = pick(tags, b);
    // COSE_Sign1_Tagged (tag 18) around a COSE_Sign1 is the same structure (RFC 9052 §4.2); accepted on purpose.
    if (tag === 18 && [ISSUER_AUTH.join("."), DEVICE_SIGNATURE.join(".")].includes(path.join("."))) return null;
    set(tree, path, new Tag(node, tag));
    return { label: `tag ${tag} around ${path.join(".")}`, bytes: encodeTree(tree) };
  },
  indefiniteLength(context, a) {
    let tree = decodeTree(context.valid);
    const candidates = paths(tree).filter((p) => {
      const node = get(tree, p);
      return Array.isArray(node) || node instanceof Map || node instanceof Uint8Array || typeof node === "string";
    });
    const path = pick(candidates, a);
    tree = set(tree, path, new Indefinite(get(tree, path) as never));
    return {
      label: `indefinite length at ${path.join(".") || "the DeviceResponse"}`,
      bytes: encodeTree(tree),
      pending: "indefinite-length",
    };
  },
  highS(context, a) {
    const tree = decodeTree(context.valid);
    const targets: [string, () => void][] = [
      ["issuer signature", () => set(tree, [...ISSUER_AUTH, 3], highS(bytesAt(tree, [...ISSUER_AUTH, 3])))],
      ["device signature", () => set(tree, [...DEVICE_SIGNATURE, 3], highS(bytesAt(tree, [...DEVICE_SIGNATURE, 3])))],
      [
        "document signer certificate",
        () =>
          set(
            tree,
            [...ISSUER_AUTH, 1, 33],
            rewriteCertificateSignature(bytesAt(tree, [...ISSUER_AUTH, 1, 33]), (r, s) => [r, minimalInteger(P256_N - toBig(s))]),
          ),
      ],
    ];
    const [what, apply] = pick(targets, a);
    apply();
    return { label: `high-S ${what}`, bytes: encodeTree(tree), pending: "high-s" };
  },
  nonMinimalDer(context, a) {
    const tree = decodeTree(context.valid);
    const pad = (integer: Uint8Array) => Uint8Array.from([0, ...(integer[0]! & 0x80 ? integer : [0, ...integer])]);
    const which = a % 2;
    set(
      tree,
      [...ISSUER_AUTH, 1, 33],
      rewriteCertificateSignature(bytesAt(tree, [...ISSUER_AUTH, 1, 33]), (r, s) => (which === 0 ? [pad(r), s] : [r, pad(s)])),
    );
    return {
      label: `non-minimal DER ${which === 0 ? "r" : "s"} in the signer certificate's signature`,
      bytes: encodeTree(tree),
      pending: "non-minimal-der",
    };
  },
  swapPart(context, a, b) {
    const tree = decodeTree(context.valid);
    const donor = pick(context.donors, b);
    const donorTree = decodeTree(donor.bytes);
    const parts: Path[] = [
      DOC,
      [...DOC, "issuerSigned"],
      [...DOC, "deviceSigned"],
      ISSUER_AUTH,
      [...ISSUER_AUTH, 0],
      [...ISSUER_AUTH, 1],
      [...ISSUER_AUTH, 2],
      [...ISSUER_AUTH, 3],
      [...DOC, "issuerSigned", "nameSpaces"],
      [...DOC, "docType"],
      [...DOC, "deviceSigned", "deviceAuth"],
      DEVICE_SIGNATURE,
      [...DEVICE_SIGNATURE, 0],
      [...DEVICE_SIGNATURE, 3],
      [...DOC, "deviceSigned", "nameSpaces"],
      ...paths(get(tree, [...DOC, "issuerSigned", "nameSpaces"]))
        .filter((p) => p.length === 2)
        .map((p) => [...DOC, "issuerSigned", "nameSpaces", ...p]),
    ];
    const part = pick(parts, a);
    if (donor.sameSession && part === DOC) return null;
    const replacement = get(donorTree, part);
    if (replacement === undefined || sameBytes(encodeTree(replacement), encodeTree(get(tree, part)))) return null;
    set(tree, part, clone(replacement));
    return { label: `${part.join(".")} from ${donor.label}`, bytes: encodeTree(tree) };
  },
  appendDocument(context, b) {
    const tree = decodeTree(context.valid);
    const donor = pick(context.donors, b);
    const document = get(decodeTree(donor.bytes), DOC);
    (get(tree, ["documents"]) as Node[]).push(clone(document));
    const sameDocType = get(tree, [...DOC, "docType"]) === get(document, ["docType"]);
    return {
      label: `a second document from ${donor.label}`,
      bytes: encodeTree(tree),
      pending: sameDocType ? "duplicate-document" : undefined,
    };
  },
};

function moveToUnprotected(tree: Node, sign1: Path, label: number) {
  const protectedHeader = decodeTree(bytesAt(tree, [...sign1, 0])) as Map<number, Node>;
  const value = protectedHeader.get(label);
  protectedHeader.delete(label);
  set(tree, [...sign1, 0], protectedHeader.size === 0 ? new Uint8Array(0) : encode(protectedHeader));
  (get(tree, [...sign1, 1]) as Map<number, Node>).set(label, value);
}

function moveToProtected(tree: Node, sign1: Path, label: number) {
  const protectedHeader = decodeTree(bytesAt(tree, [...sign1, 0])) as Map<number, Node>;
  const unprotected = get(tree, [...sign1, 1]) as Map<number, Node>;
  protectedHeader.set(label, unprotected.get(label));
  unprotected.delete(label);
  set(tree, [...sign1, 0], encode(protectedHeader));
}

const arrayAt = (tree: Node, path: Path) => {
  const node = get(tree, path);
  return (node instanceof Tag ? node.value : node) as Node[];
};
const arrayElementPaths = (tree: Node) =>
  paths(tree).filter((p) => p.length > 0 && Array.isArray(arrayAt(tree, p.slice(0, -1))) && !(get(tree, p.slice(0, -1)) instanceof Map));

export const MDOC_OPERATORS = Object.keys(operators);

/** A fast-check arbitrary of mutants of `context.valid` (null where the drawn operator does not apply). */
export const mdocMutant = (context: MdocContext) =>
  fc.tuple(fc.constantFrom(...MDOC_OPERATORS), fc.nat(), fc.nat(), fc.nat()).map(([name, a, b, c]) => {
    const mutant = operators[name]!(context, a, b, c);
    if (!mutant) return null;
    const label = `${name}: ${mutant.label}`;
    return { ...mutant, label, [fc.toStringMethod]: () => label };
  });
