// A Status List Token (draft-ietf-oauth-status-list §5), verified before one bit of it is read: a JWT
// (`typ: statuslist+jwt`, the signer's certificate in `x5c`) for SD-JWT VCs, or a CWT (COSE_Sign1 with
// `type` (16) `application/statuslist+cwt` in its protected header and the certificate in x5chain) for
// mdocs. Its signer must chain to the deployment's trust anchors, as a credential's does; `sub` must be
// the URI the credential named (a list served in another's place is refused); `iat` not in the future;
// `exp`, when present, not passed.
import { fromBase64, fromBase64Url, fromUtf8 } from "../lib/encoding";
import { Tagged } from "./cbor";
import { asBytes, asMap, asText, parse } from "./cbor-read";
import { verifyChain } from "./certificate-chain";
import { readSign1, verifyAttachedSign1, x5chain } from "./cose";
import { importSpki } from "./ecdsa";
import { invalid } from "./failures";
import { readJwt, verifyJws } from "./sd-jwt-vc";
import { STATUS_BITS } from "./status-bits";
import type { StatusReference } from "./status-reference";
import type { Certificate } from "./x509";

export type StatusListToken = { bits: number; lst: Uint8Array<ArrayBuffer>; exp: number | undefined; ttl: number | undefined };

/** How far a list's `iat` may run ahead of this service's clock. */
const ISSUED_SKEW_SECONDS = 300;
const CWT_TYPE = 16;
const CWT_TAG = 61;
const CLAIM = { sub: 2, exp: 4, iat: 6, statusList: 65533, ttl: 65534 } as const;

const WHAT = "status list";

function checkClaims(claims: { sub: unknown; iat: unknown; exp: unknown; ttl: unknown; bits: unknown }, uri: string, now: Date): void {
  const seconds = now.getTime() / 1000;
  if (claims.sub !== uri) throw invalid("the status list is for another URI (sub) than the credential names.");
  if (typeof claims.iat !== "number" || !Number.isFinite(claims.iat)) throw invalid("the status list has no issue time (iat).");
  if (claims.iat > seconds + ISSUED_SKEW_SECONDS) throw invalid("the status list is issued in the future (iat).");
  if (claims.exp !== undefined && (typeof claims.exp !== "number" || !Number.isFinite(claims.exp)))
    throw invalid("the status list's exp is not a time.");
  if (typeof claims.exp === "number" && seconds >= claims.exp) throw invalid("the status list has expired (exp).");
  if (claims.ttl !== undefined && (typeof claims.ttl !== "number" || !Number.isFinite(claims.ttl) || claims.ttl <= 0))
    throw invalid("the status list's ttl is not a positive number.");
  if (!(STATUS_BITS as readonly unknown[]).includes(claims.bits)) throw invalid("the status list's bits is not 1, 2, 4 or 8.");
}

async function verifyJwtList(body: Uint8Array, uri: string, anchors: Certificate[], now: Date): Promise<StatusListToken> {
  const jwt = readJwt(fromUtf8(body).trim(), WHAT);
  if (jwt.header.typ !== "statuslist+jwt") throw invalid("the status list is not a status list token (typ).");
  const x5c = jwt.header.x5c;
  let chain: Uint8Array<ArrayBuffer>[];
  try {
    if (!Array.isArray(x5c) || x5c.length === 0 || !x5c.every((entry) => typeof entry === "string")) throw new Error();
    chain = x5c.map((entry) => fromBase64(entry as string));
  } catch {
    throw invalid("the status list carries no certificate (x5c).");
  }
  const signer = await verifyChain(chain, anchors, now, "status-list");
  await verifyJws(jwt, await importSpki(signer.spki, signer.curve), WHAT);
  const { sub, iat, exp, ttl, status_list: list } = jwt.payload;
  const bits = typeof list === "object" && list !== null ? (list as Record<string, unknown>).bits : undefined;
  const lst = typeof list === "object" && list !== null ? (list as Record<string, unknown>).lst : undefined;
  checkClaims({ sub, iat, exp, ttl, bits }, uri, now);
  if (typeof lst !== "string" || !/^[A-Za-z0-9_-]+$/.test(lst) || lst.length % 4 === 1)
    throw invalid("the status list's lst is not base64url.");
  return { bits: bits as number, lst: fromBase64Url(lst), exp: exp as number | undefined, ttl: ttl as number | undefined };
}

async function verifyCwtList(body: Uint8Array, uri: string, anchors: Certificate[], now: Date): Promise<StatusListToken> {
  const decoded = parse(body, WHAT);
  const sign1 = readSign1(decoded instanceof Tagged && decoded.tag === CWT_TAG ? decoded.value : decoded, `the ${WHAT}`);
  if (sign1.protectedHeader.get(CWT_TYPE) !== "application/statuslist+cwt")
    throw invalid("the status list is not a status list token (type).");
  const signer = await verifyChain(x5chain(sign1, `the ${WHAT}`), anchors, now, "status-list");
  if (signer.curve !== sign1.algorithm.curve || !(await verifyAttachedSign1(sign1, await importSpki(signer.spki, signer.curve))))
    throw invalid("the status list's signature is wrong.");
  const claims = asMap(parse(sign1.payload!, WHAT), "the status list's claims");
  const list = asMap(claims.get(CLAIM.statusList), "the status list's status_list");
  const exp = claims.get(CLAIM.exp);
  const ttl = claims.get(CLAIM.ttl);
  checkClaims(
    { sub: asText(claims.get(CLAIM.sub), "the status list's sub"), iat: claims.get(CLAIM.iat), exp, ttl, bits: list.get("bits") },
    uri,
    now,
  );
  return {
    bits: list.get("bits") as number,
    lst: asBytes(list.get("lst"), "the status list's lst"),
    exp: exp as number | undefined,
    ttl: ttl as number | undefined,
  };
}

/** Verifies the token `body` served at `reference.uri`, of the format its credential's issuer publishes. */
export function verifyStatusListToken(
  body: Uint8Array,
  reference: StatusReference,
  anchors: Certificate[],
  now: Date,
): Promise<StatusListToken> {
  return reference.format === "jwt" ? verifyJwtList(body, reference.uri, anchors, now) : verifyCwtList(body, reference.uri, anchors, now);
}
