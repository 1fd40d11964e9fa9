// What the structural mutations (test/node/digital-id-mdoc-mutations.test.ts and
// test/node/digital-id-sd-jwt-mutations.test.ts) found accepted on a genuine answer, one test each,
// through the full check the route calls (the answer re-sealed to the session's key, as an attacker can).
import { describe, expect, it, vi } from "vitest";
import { decodeTree, encodeTree, get } from "./digital-id/cbor-tree";
import {
  annexCTranscriptOf,
  issueMdl,
  issueSdJwt,
  judgeSealed,
  newSession,
  presentMdoc,
  presentSdJwt,
  sealAnnexC,
  sealOpenId4Vp,
} from "./digital-id/answers";

// Credentials are issued and answers verified on Web Crypto: seconds, not milliseconds, on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

async function refused(verification: Promise<unknown>, reason: RegExp) {
  const error = await verification.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "DIGITAL_ID_INVALID", status: 422 });
  expect((error as Error).message).toMatch(reason);
}

describe("mutations found accepted", () => {
  it("an issuer-signed item disclosed twice (the same digestID) is refused", async () => {
    const session = await newSession();
    const answer = await presentMdoc(await issueMdl(), await annexCTranscriptOf(session));
    const tree = decodeTree(answer.bytes);
    const items = get(tree, ["documents", 0, "issuerSigned", "nameSpaces", "org.iso.18013.5.1"]) as unknown[];
    items.push(items[0]);
    await refused(judgeSealed(session, await sealAnnexC(session, encodeTree(tree)), new Date()), /disclosed twice/);
  });

  it("a key-binding JWT whose signature is written in non-canonical base64url (unused bits set) is refused", async () => {
    const session = await newSession();
    const { presentation } = await presentSdJwt(await issueSdJwt(), session);
    // 64 signature bytes take 86 characters, the last carrying 4 unused bits: set one, the bytes stay the same.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = presentation[presentation.length - 1]!;
    const variant = presentation.slice(0, -1) + alphabet[alphabet.indexOf(last) | 1]!;
    expect(variant).not.toBe(presentation);
    await refused(judgeSealed(session, await sealOpenId4Vp(session, { sd_jwt_vc: [variant] }), new Date()), /not a compact JWS/);
  });
});
