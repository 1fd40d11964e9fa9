// The shape the AGE_TOKEN_KEYS setting must have, read once here: by the token keys' import
// (src/domain/age-tokens/token-keys.ts) and by the fail-closed check of a deployment (problems.ts), so
// the two can never disagree on what a valid value is.
import * as z from "../lib/lazy-zod";

/**
 * A JSON array, one entry per threshold, each key a PKCS#8 DER RSA-2048 private key in standard base64
 * (`openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 | openssl pkcs8 -topk8 -nocrypt -outform DER | base64 -w0`):
 * `[{"age_over": 18, "current": "MIIEv…", "previous": "MIIEv…"}, {"age_over": 21, "current": "MIIEv…"}]`.
 */
const settingSchema = z
  .array(
    z.strictObject({
      age_over: z.number().check(z.int(), z.gte(1), z.lte(150)),
      current: z.string().check(z.minLength(1)),
      previous: z.optional(z.string().check(z.minLength(1))),
    }),
  )
  .check(z.minLength(1));

export type TokenKeyEntry = z.infer<typeof settingSchema>[number];

/** The entries by threshold, lowest first, or the rule the value breaks (never quoting it). */
export function parseAgeTokenKeysSetting(value: string): { entries: TokenKeyEntry[] } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { problem: "is not JSON" };
  }
  const parsed = settingSchema.safeParse(json);
  if (!parsed.success) return { problem: 'must be a JSON array of {"age_over", "current", "previous"?}' };
  const entries = [...parsed.data].sort((a, b) => a.age_over - b.age_over);
  if (new Set(entries.map((e) => e.age_over)).size !== entries.length) return { problem: "names an age_over twice" };
  return { entries };
}
