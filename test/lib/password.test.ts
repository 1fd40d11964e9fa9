import { describe, expect, it } from "vitest";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../../src/lib/password";

describe("password hashing", () => {
  it("pins PBKDF2 at 100,000 iterations or fewer: deployed Workers refuse more", () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_ITERATIONS).toBe(100_000);
  });

  it("stores the algorithm and parameters with a random salt", async () => {
    const a = await hashPassword("s3cret-password", "pepper");
    const b = await hashPassword("s3cret-password", "pepper");
    expect(a).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}\$k[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  it("verifies the right password only, and only with the same pepper", async () => {
    const stored = await hashPassword("s3cret-password", "pepper");
    expect(await verifyPassword("s3cret-password", stored, "pepper")).toEqual({ valid: true, needsRehash: false });
    expect((await verifyPassword("s3cret-passwore", stored, "pepper")).valid).toBe(false);
    expect((await verifyPassword("s3cret-password", stored, "other pepper")).valid).toBe(false);
  });

  it("asks for a re-hash when the stored parameters are older", async () => {
    const old = await hashPassword("s3cret-password", "pepper", 10_000);
    expect(await verifyPassword("s3cret-password", old, "pepper")).toEqual({ valid: true, needsRehash: true });
  });

  it("refuses a stored string with unknown or excessive parameters", async () => {
    expect((await verifyPassword("x", "bcrypt$10$abc$def", "pepper")).valid).toBe(false);
    expect((await verifyPassword("x", "pbkdf2-sha256$5000000$AAAA$AAAA", "pepper")).valid).toBe(false);
  });
});
