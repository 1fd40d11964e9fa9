// TEST ONLY. Structural mutations of a valid SD-JWT VC presentation (`<issuer JWT>~<disclosure>~…~<KB-JWT>`)
// as an attacker holding it (and presentations of their own) can make without the issuer's or the
// holder's private key: flips inside every signed or digested segment, characters replaced anywhere,
// JSON members dropped, retyped or added in each signed object, disclosures dropped, repeated, reordered
// or brought from another credential, the key-binding JWT dropped, swapped, signed by another key or
// `alg: none`, signatures malleated (high-S), parts swapped in from other valid presentations.
import fc from "fast-check";
import { SignJWT } from "jose";
import { base64url } from "../../wallet/cbor";
import { highS } from "./mdoc-mutations";

export type SdJwtMutant = { label: string; presentation: string; pending?: string };

export type SdJwtContext = {
  valid: string;
  /** Other valid presentations: same credential for another session, another credential for this one. */
  donors: {
    label: string;
    presentation: string /** Valid for this very session: swapping it in whole is no mutation. */;
    sameSession?: boolean;
  }[];
  /** A key the attacker holds (not the credential's holder key). */
  attackerKey: CryptoKey;
  binding: { nonce: string; audience: string };
};

const fromB64u = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0));
const jsonOf = (segment: string) => JSON.parse(new TextDecoder().decode(fromB64u(segment))) as unknown;
const segmentOf = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

type Parsed = { issuer: string[]; disclosures: string[]; keyBinding: string[] };
const split = (presentation: string): Parsed => {
  const parts = presentation.split("~");
  return { issuer: parts[0]!.split("."), disclosures: parts.slice(1, -1), keyBinding: parts[parts.length - 1]!.split(".") };
};
const join = (p: Parsed) => [p.issuer.join("."), ...p.disclosures, p.keyBinding.join(".")].join("~");

/** The segments whose bytes a signature or a digest covers, by name. */
const SEGMENTS = (p: Parsed): [string, (parsed: Parsed) => string, (parsed: Parsed, value: string) => void][] => [
  ["issuer header", (q) => q.issuer[0]!, (q, v) => (q.issuer[0] = v)],
  ["issuer payload", (q) => q.issuer[1]!, (q, v) => (q.issuer[1] = v)],
  ["issuer signature", (q) => q.issuer[2]!, (q, v) => (q.issuer[2] = v)],
  ...p.disclosures.map((_, i): [string, (q: Parsed) => string, (q: Parsed, v: string) => void] => [
    `disclosure ${i}`,
    (q) => q.disclosures[i]!,
    (q, v) => (q.disclosures[i] = v),
  ]),
  ["key-binding header", (q) => q.keyBinding[0]!, (q, v) => (q.keyBinding[0] = v)],
  ["key-binding payload", (q) => q.keyBinding[1]!, (q, v) => (q.keyBinding[1] = v)],
  ["key-binding signature", (q) => q.keyBinding[2]!, (q, v) => (q.keyBinding[2] = v)],
];
const JSON_SEGMENTS = (p: Parsed) => SEGMENTS(p).filter(([name]) => !name.endsWith("signature"));

const pick = <T>(items: T[], index: number): T => items[index % items.length]!;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~=+/ ";
const OTHER_VALUES: unknown[] = [null, 0, 1e12, -1, "", "x", true, false, [], {}, ["x"], { "...": "x" }];

const operators: Record<
  string,
  (context: SdJwtContext, a: number, b: number, c: number) => Promise<SdJwtMutant | null> | SdJwtMutant | null
> = {
  flipSegmentByte(context, a, b, c) {
    const parsed = split(context.valid);
    const [name, read, write] = pick(SEGMENTS(parsed), a);
    const bytes = fromB64u(read(parsed));
    const position = b % bytes.length;
    bytes[position] = bytes[position]! ^ (1 << (c % 8));
    write(parsed, base64url(bytes));
    return { label: `flip bit ${c % 8} of byte ${position} of the ${name}`, presentation: join(parsed) };
  },
  nonCanonicalBase64(context, a, b) {
    const parsed = split(context.valid);
    const [name, read, write] = pick(SEGMENTS(parsed), a);
    const text = read(parsed);
    const unusedBits = (text.length * 6) % 8;
    if (unusedBits === 0) return null;
    // The same bytes, with the last character's unused low bits set: another text for the same value.
    const last = ALPHABET.indexOf(text[text.length - 1]!);
    const variant = ALPHABET[(last & ~((1 << unusedBits) - 1)) | (1 + (b % ((1 << unusedBits) - 1)))]!;
    write(parsed, text.slice(0, -1) + variant);
    return { label: `the ${name} in non-canonical base64url`, presentation: join(parsed) };
  },
  replaceCharacter(context, a, b) {
    const text = context.valid;
    const position = a % text.length;
    const replacement = pick(
      [...ALPHABET].filter((ch) => ch !== text[position]),
      b,
    );
    return {
      label: `character ${position} (${text[position]}) replaced by ${replacement}`,
      presentation: text.slice(0, position) + replacement + text.slice(position + 1),
    };
  },
  editJson(context, a, b, c) {
    const parsed = split(context.valid);
    const [name, read, write] = pick(JSON_SEGMENTS(parsed), a);
    const value = jsonOf(read(parsed)) as Record<string, unknown> | unknown[];
    const keys = Object.keys(value);
    const key = pick(keys, b);
    const edit = c % 3;
    if (edit === 0 && !Array.isArray(value)) delete value[key];
    else if (edit === 1)
      (value as Record<string, unknown>)[key] = pick(
        OTHER_VALUES.filter((v) => JSON.stringify(v) !== JSON.stringify((value as Record<string, unknown>)[key])),
        c,
      );
    else if (Array.isArray(value)) value.push(pick(OTHER_VALUES, c));
    else value[`x${c % 5}`] = pick(OTHER_VALUES, c);
    write(parsed, segmentOf(value));
    return { label: `${["drop", "retype", "add beside"][edit]} member ${key} of the ${name}`, presentation: join(parsed) };
  },
  dropDisclosure(context, a) {
    const parsed = split(context.valid);
    const i = a % parsed.disclosures.length;
    parsed.disclosures.splice(i, 1);
    return { label: `drop disclosure ${i}`, presentation: join(parsed) };
  },
  duplicateDisclosure(context, a) {
    const parsed = split(context.valid);
    const i = a % parsed.disclosures.length;
    parsed.disclosures.splice(i, 0, parsed.disclosures[i]!);
    return { label: `repeat disclosure ${i}`, presentation: join(parsed) };
  },
  reorderDisclosures(context) {
    const parsed = split(context.valid);
    if (parsed.disclosures.length < 2) return null;
    parsed.disclosures.reverse();
    return { label: "disclosures in another order", presentation: join(parsed) };
  },
  foreignDisclosure(context, a, b) {
    const parsed = split(context.valid);
    const donor = split(pick(context.donors, a).presentation);
    const foreign = pick(donor.disclosures, b);
    if (parsed.disclosures.includes(foreign)) return null;
    parsed.disclosures.splice(b % (parsed.disclosures.length + 1), 0, foreign);
    return { label: `a disclosure from ${pick(context.donors, a).label}`, presentation: join(parsed) };
  },
  emptySegment(context, a) {
    const parts = context.valid.split("~");
    const at = 1 + (a % (parts.length - 1));
    parts.splice(at, 0, "");
    return { label: `an empty segment at ${at}`, presentation: parts.join("~") };
  },
  dropKeyBinding(context, a) {
    const parts = context.valid.split("~");
    const variants = [[...parts.slice(0, -1), ""].join("~"), parts.slice(0, -1).join("~"), parts.slice(0, -1).join("~") + "~~"];
    return { label: `no key-binding JWT (form ${a % variants.length})`, presentation: pick(variants, a) };
  },
  swapPart(context, a, b) {
    const parsed = split(context.valid);
    const donor = pick(context.donors, b);
    const other = split(donor.presentation);
    const swaps: [string, () => void][] = [
      ["issuer JWT", () => (parsed.issuer = other.issuer)],
      ["key-binding JWT", () => (parsed.keyBinding = other.keyBinding)],
      ["key-binding payload", () => (parsed.keyBinding[1] = other.keyBinding[1]!)],
      ["key-binding signature", () => (parsed.keyBinding[2] = other.keyBinding[2]!)],
      ["issuer signature", () => (parsed.issuer[2] = other.issuer[2]!)],
      ["issuer payload", () => (parsed.issuer[1] = other.issuer[1]!)],
      ["disclosures", () => (parsed.disclosures = other.disclosures)],
      ["whole presentation", () => Object.assign(parsed, other)],
    ];
    const [what, swap] = pick(swaps, a);
    if (donor.sameSession && what === "whole presentation") return null;
    const before = join(parsed);
    swap();
    if (join(parsed) === before) return null;
    return { label: `${what} from ${donor.label}`, presentation: join(parsed) };
  },
  async resignKeyBinding(context, a) {
    const parsed = split(context.valid);
    const claims = jsonOf(parsed.keyBinding[1]!) as Record<string, unknown>;
    const variants: [string, () => Promise<string>][] = [
      [
        "signed by the attacker's key",
        () => new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ: "kb+jwt" }).sign(context.attackerKey),
      ],
      ["alg none", async () => `${segmentOf({ alg: "none", typ: "kb+jwt" })}.${parsed.keyBinding[1]}.`],
      [
        "alg none, signature kept",
        async () => `${segmentOf({ alg: "none", typ: "kb+jwt" })}.${parsed.keyBinding[1]}.${parsed.keyBinding[2]}`,
      ],
      [
        "HS256 keyed with the holder's public x",
        async () => {
          const issuerPayload = jsonOf(parsed.issuer[1]!) as { cnf: { jwk: { x: string } } };
          const key = await crypto.subtle.importKey(
            "raw",
            new TextEncoder().encode(issuerPayload.cnf.jwk.x),
            { name: "HMAC", hash: "SHA-256" },
            false,
            ["sign"],
          );
          return new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "kb+jwt" }).sign(key);
        },
      ],
    ];
    const [what, make] = pick(variants, a);
    parsed.keyBinding = (await make()).split(".");
    return { label: `key-binding JWT ${what}`, presentation: join(parsed) };
  },
  highS(context, a) {
    const parsed = split(context.valid);
    const which = a % 2;
    const segment = which === 0 ? parsed.issuer : parsed.keyBinding;
    segment[2] = base64url(highS(fromB64u(segment[2]!)));
    // The issuer signature is inside what sd_hash covers, so its twin is refused there; the key-binding one is pending.
    return {
      label: `high-S ${which === 0 ? "issuer" : "key-binding"} signature`,
      presentation: join(parsed),
      pending: which === 1 ? "high-s" : undefined,
    };
  },
};

export const SD_JWT_OPERATORS = Object.keys(operators);

export const sdJwtMutant = (_context: SdJwtContext) =>
  fc
    .tuple(fc.constantFrom(...SD_JWT_OPERATORS), fc.nat(), fc.nat(), fc.nat())
    .map(([name, a, b, c]) => ({ name, a, b, c, [fc.toStringMethod]: () => `${name}(${a}, ${b}, ${c})` }));

/** Builds the mutant a drawn operator describes (async: some sign). */
export async function makeSdJwtMutant(
  context: SdJwtContext,
  drawn: { name: string; a: number; b: number; c: number },
): Promise<SdJwtMutant | null> {
  const mutant = await operators[drawn.name]!(context, drawn.a, drawn.b, drawn.c);
  return mutant && { ...mutant, label: `${drawn.name}: ${mutant.label}` };
}
