// Revocation (docs/digital-id.md, "Status"): every credential of a verified answer that names a status
// list is looked up in it, and anything but VALID (0) refuses the answer; so does a list that cannot be
// fetched or verified (the service cannot tell that the credential still holds). Run after every
// signature and binding of the answer has verified, so only a genuine, bound credential makes the
// service fetch anything. The list is fetched whole (every holder of a credential on it asks for the same
// bytes: the issuer learns nothing of who is verified where), over https only, with no cookie or
// credential, bounded in size (MAX_TOKEN_BYTES) and time (FETCH_DEADLINE_MS), and kept for its `ttl`, at
// most a day, through the port's cache (docs/limits.md). A cached copy is verified again on each use.
import { withDeadline } from "../lib/deadline";
import { ApiError } from "../errors";
import { invalid } from "./failures";
import { statusAt } from "./status-bits";
import { verifyStatusListToken, type StatusListToken } from "./status-list-token";
import type { StatusReference } from "./status-reference";
import type { Certificate } from "./x509";

/** The largest Status List Token response read (256 KiB); a longer body is refused. */
export const MAX_TOKEN_BYTES = 256 * 1024;
/** How long fetching a list, body included, may take. */
export const FETCH_DEADLINE_MS = 3000;
/** The longest a list is kept, whatever its `ttl` says. */
export const MAX_KEEP_SECONDS = 86_400;

/** A verified token kept by its URI, until `freshUntil` (milliseconds since the epoch). */
export type CachedStatusList = { token: Uint8Array<ArrayBuffer>; freshUntil: number };

/**
 * How the verifier reaches status lists, given by its caller (src/session/status-lists.ts in the Worker):
 * an outbound fetch, and a cache shared as widely as the deployment allows. A cache that fails is a miss.
 */
export type StatusListPort = {
  fetch(url: string, init: RequestInit): Promise<Response>;
  read(uri: string): Promise<CachedStatusList | undefined>;
  keep(uri: string, entry: CachedStatusList): Promise<void>;
};

const ACCEPT = { jwt: "application/statuslist+jwt", cwt: "application/statuslist+cwt" } as const;
const STATUS_NAMES: Record<number, string> = {
  1: "the credential has been revoked (status list).",
  2: "the credential is suspended (status list).",
};

function checkUri(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalid("the credential's status list is not an https URL.");
  }
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "")
    throw invalid("the credential's status list is not an https URL.");
}

async function readBounded(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(response.headers.get("content-length") ?? 0) > MAX_TOKEN_BYTES) {
    await response.body?.cancel();
    throw invalid("the status list is larger than 256 KiB.");
  }
  const reader = response.body?.getReader();
  const body = new Uint8Array(MAX_TOKEN_BYTES);
  let length = 0;
  if (!reader) return body.slice(0, 0);
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return body.slice(0, length);
    if (length + chunk.value.length > MAX_TOKEN_BYTES) {
      await reader.cancel();
      throw invalid("the status list is larger than 256 KiB.");
    }
    body.set(chunk.value, length);
    length += chunk.value.length;
  }
}

async function fetchToken(reference: StatusReference, port: StatusListPort): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await withDeadline(FETCH_DEADLINE_MS, async (signal) => {
      // A redirect is not followed: it could lead to plain http, and the signed URI is where the list lives.
      const response = await port.fetch(reference.uri, {
        method: "GET",
        headers: { accept: ACCEPT[reference.format] },
        redirect: "manual",
        signal,
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw invalid(`the credential's status list could not be fetched (HTTP ${response.status}).`);
      }
      return await readBounded(response);
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid("the credential's status list could not be fetched.");
  }
}

/** Seconds a verified list may be kept from `now`: its ttl, at most a day, never past its exp; 0 without a ttl. */
function keepSeconds(list: StatusListToken, now: Date): number {
  if (list.ttl === undefined) return 0;
  const untilExp = list.exp === undefined ? Infinity : list.exp - now.getTime() / 1000;
  return Math.max(0, Math.min(list.ttl, MAX_KEEP_SECONDS, untilExp));
}

async function statusList(reference: StatusReference, port: StatusListPort, anchors: Certificate[], now: Date): Promise<StatusListToken> {
  const cached = await port.read(reference.uri).catch(() => undefined);
  if (cached && cached.freshUntil > now.getTime()) {
    try {
      return await verifyStatusListToken(cached.token, reference, anchors, now);
    } catch {
      // A copy that no longer verifies (its exp passed, an anchor left) is fetched again.
    }
  }
  const token = await fetchToken(reference, port);
  const list = await verifyStatusListToken(token, reference, anchors, now);
  const seconds = keepSeconds(list, now);
  if (seconds > 0) await port.keep(reference.uri, { token, freshUntil: now.getTime() + seconds * 1000 }).catch(() => undefined);
  return list;
}

export type StatusContext = { statusLists?: StatusListPort; trustAnchors: Certificate[]; now: Date };

/** Refuses the answer unless every referenced credential is VALID (0) in its issuer's list. */
export async function checkStatuses(references: StatusReference[], context: StatusContext): Promise<void> {
  const unique = [...new Map(references.map((reference) => [`${reference.format} ${reference.idx} ${reference.uri}`, reference])).values()];
  if (unique.length === 0) return;
  if (!context.statusLists) throw invalid("this deployment cannot check the credential's status list.");
  for (const reference of unique) checkUri(reference.uri);
  for (const reference of unique) {
    const list = await statusList(reference, context.statusLists, context.trustAnchors, context.now);
    const status = await statusAt(list.lst, list.bits, reference.idx);
    if (status !== 0) throw invalid(STATUS_NAMES[status] ?? "the credential has a status this service does not accept (status list).");
  }
}
