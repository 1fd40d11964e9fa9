// The routes' shapes: what a validator refuses before any bytes are decoded, and that what the core
// produces passes its own response shapes.
import { beforeAll, describe, expect, it } from "vitest";
import {
  AgeTokenField,
  ageTokenChallenge,
  IssueAgeTokensInput,
  IssueAgeTokensOutput,
  issuerDirectory,
  IssuerDirectoryDocument,
  issueTokens,
  loadTokenKeys,
  type TokenKeys,
} from "../../src/domain/age-tokens";
import { DEV_SETTING, fetchTokens } from "./helpers";
import { b64url, createTokenRequest } from "./rfc-client";

let keys: TokenKeys;
let request: string;
beforeAll(async () => {
  keys = await loadTokenKeys(DEV_SETTING);
  request = b64url((await createTokenRequest(ageTokenChallenge("https://age.example.com"), keys[0]!.publicKey)).tokenRequest);
});

describe("IssueAgeTokensInput", () => {
  it("takes 1 to 10 base64url TokenRequests, padded or not", () => {
    expect(IssueAgeTokensInput.safeParse({ age_over: 18, token_requests: [request] }).success).toBe(true);
    expect(IssueAgeTokensInput.safeParse({ age_over: 18, token_requests: Array(10).fill(`${request}==`) }).success).toBe(true);
  });

  it.each([
    ["no request", () => ({ age_over: 18, token_requests: [] })],
    ["11 requests", () => ({ age_over: 18, token_requests: Array(11).fill(request) })],
    ["a request that is not base64url", () => ({ age_over: 18, token_requests: [`${request.slice(0, -1)}+`] })],
    ["a request longer than a TokenRequest", () => ({ age_over: 18, token_requests: [`${request}AAAA`] })],
    ["no age_over", () => ({ token_requests: [request] })],
    ["a fractional age_over", () => ({ age_over: 18.5, token_requests: [request] })],
  ])("refuses %s", (_, body) => {
    expect(request).toHaveLength(346);
    expect(IssueAgeTokensInput.safeParse(body()).success).toBe(false);
  });
});

describe("the core's output fits the shapes", () => {
  it("a token fits AgeTokenField, a token 1 byte longer does not", async () => {
    const [token] = await fetchTokens(keys, 18, ageTokenChallenge("https://age.example.com"));
    expect(AgeTokenField.safeParse(token).success).toBe(true);
    expect(AgeTokenField.safeParse(`${token}AAAA`).success).toBe(false);
  });

  it("issuance and the directory fit their documents", async () => {
    expect(IssueAgeTokensOutput.safeParse({ token_responses: await issueTokens(keys, 18, [request]) }).success).toBe(true);
    expect(IssuerDirectoryDocument.safeParse(issuerDirectory(keys, "https://age.example.com")).success).toBe(true);
  });
});
