// openid4vp-v1-unsigned's own rules (docs/digital-id.md): what the request tells a wallet (the DCQL query, the
// encryption and the algorithms it accepts), the shape of the decrypted `vp_token` (one presentation for one
// query this request made), and which mdoc elements state an age. Answers are sealed to the request's key
// by the test wallet; each refusal pins its message, each has an accepted neighbour.
import { describe, expect, it } from "vitest";
import { decryptEcdhEsJwe } from "../../src/digital-id/jwe";
import { MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, sealOpenId4Vp, type DigitalRequest } from "../wallet";
import { APP_ORIGIN, newRequest, root, signerUnderTestRoot, verify, refused } from "./wallet-setup";

const protocol = "openid4vp-v1-unsigned" as const;

const openId4Vp = (requests: DigitalRequest[]) => requests.find((request) => request.protocol === protocol)!;

describe("the OpenID4VP request a wallet reads", () => {
  it("asks for the age element not to be retained, for the PID's vct values, encrypted with A128GCM, signed with ES256/384/512", async () => {
    const { requests, pending } = await newRequest(21);
    const { privateKey, nonce } = (pending as { openId4Vp: { nonce: string; privateKey: Record<string, string> } }).openId4Vp;
    const mdoc = (id: string, doctype: string, namespace: string) => ({
      id,
      format: "mso_mdoc",
      meta: { doctype_value: doctype },
      claims: [{ path: [namespace, "age_over_21"], intent_to_retain: false }],
    });
    const credentials = [
      mdoc("mdl", "org.iso.18013.5.1.mDL", "org.iso.18013.5.1"),
      mdoc("eu_age", "eu.europa.ec.av.1", "eu.europa.ec.av.1"),
      {
        id: "sd_jwt_vc",
        format: "dc+sd-jwt",
        meta: { vct_values: ["urn:eudi:pid:1", "urn:eu.europa.ec.eudi:pid:1"] },
        claims: [{ path: ["age_equal_or_over", "21"] }],
      },
    ];
    expect(openId4Vp(requests as DigitalRequest[]).data).toStrictEqual({
      response_type: "vp_token",
      response_mode: "dc_api.jwt",
      nonce,
      dcql_query: { credentials, credential_sets: [{ options: [["mdl"], ["eu_age"], ["sd_jwt_vc"]] }] },
      client_metadata: {
        jwks: {
          keys: [{ kty: "EC", crv: "P-256", x: privateKey.x, y: privateKey.y, use: "enc", alg: "ECDH-ES", kid: privateKey.kid }],
        },
        encrypted_response_enc_values_supported: ["A128GCM"],
        vp_formats_supported: {
          mso_mdoc: { issuerauth_alg_values: [-7, -35, -36], deviceauth_alg_values: [-7, -35, -36] },
          "dc+sd-jwt": { "sd-jwt_alg_values": ["ES256", "ES384", "ES512"], "kb-jwt_alg_values": ["ES256", "ES384", "ES512"] },
        },
      },
    });
  });

  it("offers the mdoc queries up to 99 (age_over_99) and only the SD-JWT VC from 100", async () => {
    const ids = async (age: number) => {
      const data = openId4Vp((await newRequest(age)).requests as DigitalRequest[]).data as {
        dcql_query: { credentials: { id: string; claims: { path: string[] }[] }[] };
      };
      return data.dcql_query.credentials.map((credential) => [credential.id, credential.claims[0]!.path[1]]);
    };
    expect(await ids(99)).toStrictEqual([
      ["mdl", "age_over_99"],
      ["eu_age", "age_over_99"],
      ["sd_jwt_vc", "99"],
    ]);
    expect(await ids(100)).toStrictEqual([["sd_jwt_vc", "100"]]);
  });
});

describe("the decrypted vp_token", () => {
  it("no vp_token, an entry that is not an array of one non-empty presentation, is refused", async () => {
    const { requests, pending } = await newRequest(18);
    const request = openId4Vp(requests as DigitalRequest[]);
    for (const content of [
      {},
      { vp_token: "text" },
      { vp_token: { sd_jwt_vc: "a~b" } },
      { vp_token: { sd_jwt_vc: [] } },
      { vp_token: { sd_jwt_vc: ["a~b", "c~d"] } },
      { vp_token: { sd_jwt_vc: [""] } },
    ])
      await refused(
        verify(await sealOpenId4Vp(request, content), pending, 18),
        "the response holds no `vp_token` with one presentation per credential.",
      );
  });

  it("an answer to no query, or to two at once, is refused even when one of them is valid", async () => {
    const { requests, pending } = await newRequest(18);
    const request = openId4Vp(requests as DigitalRequest[]);
    const credential = await issueSdJwtVc({
      signer: await documentSigner(await root(), { extendedKeyUsage: undefined }),
      ages: { 18: true },
    });
    const valid = await answer(requests as DigitalRequest[], credential, { origin: APP_ORIGIN, protocol });
    expect(await verify(valid, pending, 18)).toStrictEqual({ outcome: "APPROVED" });
    const { privateKey } = (pending as { openId4Vp: { privateKey: Parameters<typeof decryptEcdhEsJwe>[1] } }).openId4Vp;
    const sent = JSON.parse(
      new TextDecoder().decode(await decryptEcdhEsJwe((valid.data as { response: string }).response, privateKey)),
    ) as {
      vp_token: { sd_jwt_vc: [string] };
    };
    const presentation = sent.vp_token.sd_jwt_vc[0];
    for (const vpToken of [{}, { sd_jwt_vc: [presentation], mdl: ["AAAA"] }])
      await refused(
        verify(await sealOpenId4Vp(request, { vp_token: vpToken }), pending, 18),
        "the response must answer exactly one credential query.",
      );
    for (const id of ["pid", "constructor"])
      await refused(
        verify(await sealOpenId4Vp(request, { vp_token: JSON.parse(`{"${id}": ["${presentation}"]}`) }), pending, 18),
        "the response answers a credential query this request did not make.",
      );
  });

  it("an mdoc presentation that is not base64url is refused, naming it", async () => {
    const { requests, pending } = await newRequest(18);
    await refused(
      verify(await sealOpenId4Vp(openId4Vp(requests as DigitalRequest[]), { vp_token: { mdl: ["not base64url!"] } }), pending, 18),
      "the mdoc presentation is not base64url.",
    );
  });
});

describe("which mdoc elements state an age", () => {
  it("only age_over_NN itself: elements that merely contain it (age_over_180, is_age_over_18) state nothing, whatever their value", async () => {
    const { requests, pending } = await newRequest(18);
    const mdl = await issueMdoc({
      kind: MDL,
      signer: await signerUnderTestRoot(),
      ages: { 18: true },
      otherElements: { age_over_180: "not a boolean", is_age_over_18: "not a boolean" },
    });
    const response = await answer(requests as DigitalRequest[], mdl, {
      origin: APP_ORIGIN,
      protocol,
      disclose: ["age_over_18", "age_over_180", "is_age_over_18"],
    });
    expect(await verify(response, pending, 18)).toStrictEqual({ outcome: "APPROVED" });
  });
});
