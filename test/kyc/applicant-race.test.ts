// Two create-applicant requests of one account that race past the existence check both create an
// applicant at the provider; only one record can be stored, and the loser's applicant is deleted at the
// provider through the queue, not left there with the person's name (docs/security-privacy.md). The race is made
// certain with a provider stand-in (the service context's provider port) that answers only once both
// requests have asked.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { IdentityProvider } from "../../src/context/identity-provider";
import type { ServiceContext } from "../../src/context/service-context";
import { createApplicant } from "../../src/domain/kyc";
import { ApiError } from "../../src/errors";
import { serviceContext } from "../../src/service";
import { seedAccount } from "../helpers/seed";
import { withParts } from "../../src/context/shard-contexts";

function racingProvider() {
  const created: string[] = [];
  let release!: () => void;
  const bothAsked = new Promise<void>((resolve) => (release = resolve));
  const provider = {
    name: "sandbox",
    async createApplicant() {
      const id = `applicant-${created.length + 1}`;
      created.push(id);
      if (created.length === 2) release();
      await bothAsked;
      return id;
    },
  } as unknown as IdentityProvider;
  return { provider, created };
}

describe("create-applicant racing itself", () => {
  it("stores one applicant and enqueues the deletion of the other at the provider", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    const { provider, created } = racingProvider();
    const sent: unknown[] = [];
    const ctx: ServiceContext = withParts(serviceContext(env).onShard(account.shard), {
      provider,
      mailQueue: { send: async (body: unknown) => void sent.push(body) } as unknown as Queue,
    });
    const input = { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" };
    const results = await Promise.allSettled([createApplicant(ctx, account.id, input), createApplicant(ctx, account.id, input)]);

    expect(created).toHaveLength(2);
    const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.applicantId] : []));
    const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(ApiError);
    expect((lost[0] as ApiError).code).toBe("APPLICANT_EXISTS");
    const loser = created.find((id) => id !== won[0]);
    expect(sent).toEqual([{ type: "delete-applicant", provider: "sandbox", applicantId: loser }]);
  });
});
