// AGE_TOKEN_KEYS fails closed in production (src/config/problems.ts, src/domain/age-tokens/deployment-keys.ts):
// the committed development keys, in any arrangement, or a value that is not the setting's JSON refuse
// to serve (503 MISCONFIGURED, the setting named only in the operator's log); a value whose keys do not
// import is 503 at first use; no value at all serves and offers no tokens.
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { DEVELOPMENT_AGE_TOKEN_KEY_SLICES } from "../../src/config/problems";
import { parseSettings } from "../../src/config/settings";
import { deploymentTokenKeys } from "../../src/domain/age-tokens";
import { ApiError } from "../../src/errors";
import devKeys from "../fixtures/dev-age-token-keys.json";
import { productionEnv } from "../helpers/production-env";
import { devKey, freshKey, setting } from "./helpers";

async function health(appEnv: Env) {
  const res = await createApp().fetch(new Request("https://avs.test/api/health"), appEnv, createExecutionContext());
  return { status: res.status, text: await res.text() };
}

async function expectRefused(value: string) {
  const errors = vi.spyOn(console, "error");
  const res = await health(productionEnv({ AGE_TOKEN_KEYS: value }));
  expect(res.status, res.text).toBe(503);
  expect(res.text).not.toContain("AGE_TOKEN_KEYS");
  const line = errors.mock.calls.map((call) => String(call[0])).find((text) => text.includes("misconfigured: refusing to serve"));
  expect(line, "the refusal is logged").toBeDefined();
  expect((JSON.parse(line!) as { problems: { setting: string }[] }).problems.map((p) => p.setting)).toContain("AGE_TOKEN_KEYS");
  // No key material in the answer or the log line.
  for (const slice of DEVELOPMENT_AGE_TOKEN_KEY_SLICES) {
    expect(res.text).not.toContain(slice);
    expect(line).not.toContain(slice);
  }
  errors.mockRestore();
}

describe("AGE_TOKEN_KEYS in production", () => {
  it("the slices that recognise the development keys are taken from the committed fixture, one per key", () => {
    const keys = JSON.parse(devKeys.value) as { current: string }[];
    expect(DEVELOPMENT_AGE_TOKEN_KEY_SLICES).toHaveLength(keys.length);
    keys.forEach((key, i) => {
      expect(key.current).toContain(DEVELOPMENT_AGE_TOKEN_KEY_SLICES[i]);
    });
  });

  it("the committed development value refuses to serve", async () => {
    await expectRefused(devKeys.value);
  });

  it("a development key in another arrangement (alone, as a previous key, wrapped) refuses", async () => {
    const fresh = await freshKey();
    await expectRefused(setting([{ age_over: 21, current: devKey(21) }]));
    await expectRefused(setting([{ age_over: 18, current: fresh, previous: devKey(18) }]));
    await expectRefused(setting([{ age_over: 18, current: devKey(18).replace(/(.{64})/g, "$1\n") }]));
  });

  it("a value that is not the setting's JSON refuses", async () => {
    await expectRefused("not json");
    await expectRefused("[]");
    await expectRefused('{"age_over":18,"current":"x"}');
    await expectRefused('[{"age_over":"18","current":"x"}]');
  });

  it("a value the key import would refuse refuses at once too: one parse of the setting serves both (a threshold twice, out of range, an unknown field)", async () => {
    const key = await freshKey();
    await expectRefused(
      setting([
        { age_over: 18, current: key },
        { age_over: 18, current: key },
      ]),
    );
    await expectRefused(setting([{ age_over: 0, current: key }]));
    await expectRefused(JSON.stringify([{ age_over: 18, current: key, note: "x" }]));
  });

  it("fresh keys serve", async () => {
    expect((await health(productionEnv({ AGE_TOKEN_KEYS: setting([{ age_over: 18, current: await freshKey() }]) }))).status).toBe(200);
  });

  it("no value serves and offers no tokens", async () => {
    const appEnv = productionEnv();
    expect((await health(appEnv)).status).toBe(200);
    expect(await deploymentTokenKeys(parseSettings(appEnv))).toBeNull();
  });

  it("keys that do not import are 503 MISCONFIGURED at first use, and stay refused", async () => {
    const settings = parseSettings(productionEnv({ AGE_TOKEN_KEYS: setting([{ age_over: 18, current: btoa("not a key") }]) }));
    expect(settings.problems).toEqual([]);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await deploymentTokenKeys(settings).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("MISCONFIGURED");
      // The operator's log line names the setting and the rule it breaks, once each, never the value.
      expect((error as ApiError).log?.fields).toEqual({
        problems: [{ setting: "AGE_TOKEN_KEYS", problem: "age_over 18 current is not a base64 PKCS#8 RSA private key" }],
      });
    }
  });

  it("development keys import once per settings object", async () => {
    const settings = parseSettings(productionEnv({ ENVIRONMENT: "development", AGE_TOKEN_KEYS: devKeys.value }));
    const first = await deploymentTokenKeys(settings);
    expect(first!.map((k) => k.ageOver)).toEqual([18, 21]);
    expect(await deploymentTokenKeys(settings)).toBe(first);
  });
});
