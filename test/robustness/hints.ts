// What the document cannot say about a field (that a string is a date, a public URL, an email), per
// route, so that generated valid requests are valid for the domain too and reach its success paths.
import fc from "fast-check";
import type { Hints } from "./schema-arbitraries";

let emailCounter = 0;
export const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom("example.test", "example.com", "mail.example.org"), fc.boolean())
  // Unique, and sometimes in mixed case with spaces around, which the API trims and lower-cases.
  .map(([local, domain, shout]) => {
    const address = `${local}.${Date.now()}.${++emailCounter}@${domain}`;
    return shout ? `  ${address.toUpperCase()} ` : address;
  });

const publicCallbackUrl = fc
  .tuple(
    fc.constantFrom("https://merchant.example.com", "https://shop.example.org:8443", "https://8.8.8.8", "https://[2606:4700::1111]"),
    fc.webPath(),
    fc.option(fc.webQueryParameters(), { nil: undefined }),
  )
  .map(([origin, path, query]) => `${origin}${path}${query ? `?${query}` : ""}`)
  .filter((url) => url.length <= 2048);

const DAY_MS = 24 * 60 * 60 * 1000;
const pastDate = fc.integer({ min: 1, max: 120 * 365 }).map((days) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10));
const recentInstant = fc.integer({ min: 0, max: 300 * DAY_MS }).map((ms) => new Date(Date.now() - ms));
const rangeBound = fc.oneof(
  recentInstant.map((d) => d.toISOString().slice(0, 10)),
  recentInstant.map((d) => d.toISOString()),
);

const names = fc.constantFrom("Ada", "Grace", "José", "Zoë", "李", "O'Brien", "Anne-Marie");

export function hintsFor(operationKey: string): Hints {
  const common: Hints = {
    email,
    newEmail: email,
    callback_url: publicCallbackUrl,
    return_url: publicCallbackUrl,
    url: publicCallbackUrl,
    dob: pastDate,
    country: fc.constantFrom("GBR", "fra", "DEU", "USA"),
  };
  if (operationKey === "GET /api/dev/outbox") return { ...common, to: email };
  // A signed-in answer never carries an age token (422); the anonymous path is test/age-tokens/redemption-route.test.ts's.
  if (operationKey === "POST /api/age-verification/session/{id}/complete") return { ...common, age_token: fc.constant(undefined) };
  if (operationKey === "POST /api/kyc/create-applicant" || operationKey === "PUT /api/kyc/applicant")
    return { ...common, firstName: names, lastName: names };
  if (operationKey.startsWith("GET /api/usage/")) return { ...common, from: rangeBound, to: rangeBound };
  return common;
}
