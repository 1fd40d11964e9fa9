// The digital-ID request (docs/api-contract.md §Digital ID): exactly the `digital.requests` array, asking for `age_over_NN`
// at the session's age and nothing else, in both doctypes and over both protocols; fresh keys and nonces
// on every call; no mdoc way above 99; a pending state that survives JSON. Read with cbor-x, not with
// the service's own decoder.
import { describe, expect, it } from "vitest";
import { Encoder } from "cbor-x";
import { createDigitalIdRequest, PendingDigitalIdRequest } from "../../src/digital-id";
import { fromBase64url } from "../wallet/cbor";

const cbor = new Encoder({ useRecords: false, mapsAsObjects: false });
const make = (ageRequired: number) =>
  createDigitalIdRequest({ ageRequired, appOrigin: "https://age.example.test", now: new Date("2026-11-24T12:00:00.000Z") });

function annexC(requests: { protocol: string; data: Record<string, unknown> }[]) {
  const request = requests.find((r) => r.protocol === "org-iso-mdoc")!;
  const deviceRequest = cbor.decode(fromBase64url(request.data.deviceRequest as string)) as Map<string, unknown>;
  const itemsRequests = (deviceRequest.get("docRequests") as Map<string, { tag: number; value: Uint8Array }>[]).map((docRequest) => {
    expect([...docRequest.keys()]).toEqual(["itemsRequest"]);
    expect(docRequest.get("itemsRequest")!.tag).toBe(24);
    return cbor.decode(docRequest.get("itemsRequest")!.value) as Map<string, unknown>;
  });
  const encryptionInfo = cbor.decode(fromBase64url(request.data.encryptionInfo as string)) as [string, Map<string, unknown>];
  return { request, deviceRequest, itemsRequests, encryptionInfo };
}

describe("digital-ID request", () => {
  it("offers org-iso-mdoc then openid4vp-v1-unsigned, each {protocol, data} only", async () => {
    const { requests } = await make(18);
    expect(requests.map((r) => r.protocol)).toEqual(["org-iso-mdoc", "openid4vp-v1-unsigned"]);
    for (const request of requests) expect(Object.keys(request).sort()).toEqual(["data", "protocol"]);
    expect(Object.keys(requests[0]!.data).sort()).toEqual(["deviceRequest", "encryptionInfo"]);
  });

  it("the DeviceRequest asks only for age_over_NN, not retained, in org.iso.18013.5.1.mDL and eu.europa.ec.av.1", async () => {
    const { deviceRequest, itemsRequests } = annexC((await make(18)).requests);
    expect(deviceRequest.get("version")).toBe("1.0");
    expect(itemsRequests.map((items) => [items.get("docType"), items.get("nameSpaces")])).toEqual([
      ["org.iso.18013.5.1.mDL", new Map([["org.iso.18013.5.1", new Map([["age_over_18", false]])]])],
      ["eu.europa.ec.av.1", new Map([["eu.europa.ec.av.1", new Map([["age_over_18", false]])]])],
    ]);
  });

  it("NN is the age in two digits (age_over_05)", async () => {
    const { itemsRequests } = annexC((await make(5)).requests);
    expect([...(itemsRequests[0]!.get("nameSpaces") as Map<string, Map<string, boolean>>).get("org.iso.18013.5.1")!.keys()]).toEqual([
      "age_over_05",
    ]);
  });

  it("EncryptionInfo is ['dcapi', {nonce, recipientPublicKey}] with a P-256 COSE_Key", async () => {
    const { encryptionInfo } = annexC((await make(18)).requests);
    expect(encryptionInfo[0]).toBe("dcapi");
    expect([...encryptionInfo[1].keys()].sort()).toEqual(["nonce", "recipientPublicKey"]);
    expect((encryptionInfo[1].get("nonce") as Uint8Array).length).toBeGreaterThanOrEqual(16);
    const key = encryptionInfo[1].get("recipientPublicKey") as Map<number, unknown>;
    expect([key.get(1), key.get(-1), (key.get(-2) as Uint8Array).length, (key.get(-3) as Uint8Array).length]).toEqual([2, 1, 32, 32]);
  });

  it("the OpenID4VP request: dc_api.jwt to a P-256 ECDH-ES key with a kid, DCQL for the same elements and age_equal_or_over.NN", async () => {
    const { requests, pending } = await make(21);
    const data = requests[1]!.data as Record<string, any>;
    expect(data.response_type).toBe("vp_token");
    expect(data.response_mode).toBe("dc_api.jwt");
    expect(data).not.toHaveProperty("client_id");
    expect(data.nonce).toBe(pending.openId4Vp.nonce);
    const [jwk] = data.client_metadata.jwks.keys;
    expect(jwk).toStrictEqual({
      kty: "EC",
      crv: "P-256",
      x: pending.openId4Vp.privateKey.x,
      y: pending.openId4Vp.privateKey.y,
      use: "enc",
      alg: "ECDH-ES",
      kid: pending.openId4Vp.privateKey.kid,
    });
    expect(
      data.dcql_query.credentials.map((c: any) => [c.format, c.meta.doctype_value ?? null, c.claims.map((claim: any) => claim.path)]),
    ).toEqual([
      ["mso_mdoc", "org.iso.18013.5.1.mDL", [["org.iso.18013.5.1", "age_over_21"]]],
      ["mso_mdoc", "eu.europa.ec.av.1", [["eu.europa.ec.av.1", "age_over_21"]]],
      ["dc+sd-jwt", null, [["age_equal_or_over", "21"]]],
    ]);
    expect(data.dcql_query.credential_sets).toEqual([{ options: data.dcql_query.credentials.map((c: any) => [c.id]) }]);
  });

  it("every call makes fresh keys and nonces", async () => {
    const first = await make(18);
    const second = await make(18);
    expect(second.pending.openId4Vp.nonce).not.toBe(first.pending.openId4Vp.nonce);
    expect(second.pending.openId4Vp.privateKey.d).not.toBe(first.pending.openId4Vp.privateKey.d);
    expect(second.pending.openId4Vp.privateKey.kid).not.toBe(first.pending.openId4Vp.privateKey.kid);
    expect(second.pending.mdoc!.privateKey.d).not.toBe(first.pending.mdoc!.privateKey.d);
    expect(second.pending.mdoc!.encryptionInfo).not.toBe(first.pending.mdoc!.encryptionInfo);
  });

  it("above 99 the mdoc way is not offered, neither as org-iso-mdoc nor in the DCQL query", async () => {
    const { requests, pending } = await make(100);
    expect(requests.map((r) => r.protocol)).toEqual(["openid4vp-v1-unsigned"]);
    expect((requests[0]!.data as any).dcql_query.credentials.map((c: any) => c.format)).toEqual(["dc+sd-jwt"]);
    expect(pending.mdoc).toBeNull();
  });

  it("the pending state is plain JSON that parses back, and small", async () => {
    const { pending } = await make(18);
    const text = JSON.stringify(pending);
    expect(PendingDigitalIdRequest.parse(JSON.parse(text))).toStrictEqual(pending);
    expect(text.length).toBeLessThan(1024);
  });
});
