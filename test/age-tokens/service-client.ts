// The age-token client as the /verify page uses the service, for the workers tests: reads the issuer
// directory through its route, builds TokenRequests with the RFC client (rfc-client.ts), asks POST
// /api/age-tokens, finalizes the responses into Tokens. The challenge is built here from RFC 9577
// §2.1.1 with the contract's values (the host of APP_URL, empty redemption context), not by the code under test.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { call, readResponse, buildRequest, type CallOptions } from "../helpers/http";
import { createApp } from "../../src/app";
import { createExecutionContext } from "cloudflare:test";
import { b64url, createTokenRequest, tokenChallenge, unb64url } from "./rfc-client";

export const SERVICE_HOST = new URL(env.APP_URL).host;
export const SERVICE_CHALLENGE = tokenChallenge(SERVICE_HOST, new Uint8Array(0), SERVICE_HOST);
export const DIRECTORY_PATH = "/.well-known/private-token-issuer-directory";

export type DirectoryKey = { "token-type": number; "token-key": string; age_over: number };

/** A request against the configured Worker, or against an app built with `appEnv`. */
export async function request(method: string, path: string, options: CallOptions = {}, appEnv?: Env) {
  if (!appEnv) return call(method, path, options);
  return readResponse(await createApp().fetch(buildRequest(method, path, options), appEnv, createExecutionContext()));
}

export async function directoryKeys(appEnv?: Env): Promise<DirectoryKey[]> {
  const res = await request("GET", DIRECTORY_PATH, {}, appEnv);
  expect(res.status, res.text).toBe(200);
  return (JSON.parse(res.text) as { "token-keys": DirectoryKey[] })["token-keys"];
}

/** The first key the directory lists for the threshold: its current key (RFC 9578 §4 preference order). */
export async function directoryKey(ageOver: number, appEnv?: Env): Promise<Uint8Array<ArrayBuffer>> {
  const key = (await directoryKeys(appEnv)).find((k) => k.age_over === ageOver);
  expect(key, `a key for ${ageOver}`).toBeDefined();
  return unb64url(key!["token-key"].replace(/=+$/, ""));
}

/** TokenRequests for `count` tokens and a way to finish them, as the page holds them between the two. */
export async function tokenRequests(tokenKey: Uint8Array<ArrayBuffer>, count: number, challenge = SERVICE_CHALLENGE) {
  return Promise.all(Array.from({ length: count }, () => createTokenRequest(challenge, tokenKey)));
}

/** POST /api/age-tokens as the account; the body may add a confirmation or replace the requests. */
export const askForTokens = (token: string, body: Record<string, unknown>, appEnv?: Env) =>
  request("POST", "/api/age-tokens", { token, body }, appEnv);

/** `count` finished tokens for the account, through the routes; fails the test unless issued. */
export async function stockTokens(
  token: string,
  ageOver: number,
  count = 1,
  extra: Record<string, unknown> = {},
  appEnv?: Env,
): Promise<string[]> {
  const pending = await tokenRequests(await directoryKey(ageOver, appEnv), count);
  const res = await askForTokens(
    token,
    { age_over: ageOver, token_requests: pending.map((p) => b64url(p.tokenRequest)), ...extra },
    appEnv,
  );
  expect(res.status, res.text).toBe(200);
  const responses = res.body.data.token_responses as string[];
  return Promise.all(pending.map(async (p, i) => b64url(await p.finalize(unb64url(responses[i]!)))));
}
