// Malformed passkey responses (docs/security-privacy.md): whatever a client sends in an assertion's or a
// registration's fields, the checks answer 400 PASSKEY_INVALID, never an unhandled error (a 500); and a
// registration whose COSE key is not a point on P-256 is refused at enrolment, before it is stored and
// breaks every later approval. The good responses come from the software authenticator.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  verifyAssertion,
  verifyRegistration,
  type AssertionCredential,
  type RegistrationCredential,
} from "../../src/domain/passkeys/webauthn";
import { ApiError } from "../../src/errors";
import { b64url, fromB64url, ORIGIN, RP_ID, SoftwareAuthenticator } from "../helpers/authenticator";

const rp = { id: RP_ID, origin: ORIGIN };
const challenge = b64url(crypto.getRandomValues(new Uint8Array(32)));

/** Resolves to the error's code: PASSKEY_INVALID for a refusal, or the name of any other error. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "accepted";
  } catch (error) {
    return error instanceof ApiError ? `${error.code} ${error.status}` : `unhandled ${(error as Error).name}`;
  }
}

/** Text of the base64url alphabet of any length, which the request schema lets through: lengths 1 mod 4 are no base64. */
const base64urlText = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("")),
  minLength: 1,
  maxLength: 200,
});

describe("malformed passkey responses", () => {
  it("an assertion with any base64url text in any field is 400 PASSKEY_INVALID, never an unhandled error", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    const registered = await verifyRegistration((await authenticator.register({ challenge })) as RegistrationCredential, rp);
    const key = { publicKey: registered.publicKey, signCount: 0 };
    const good = (await authenticator.assert({ challenge })) as AssertionCredential;
    // The positive control: the unchanged assertion verifies.
    expect(await outcome(() => verifyAssertion(good, key, rp))).toBe("accepted");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("clientDataJSON", "authenticatorData", "signature"), base64urlText, async (field, text) => {
        const changed = { ...good, response: { ...good.response, [field]: text } };
        expect(await outcome(() => verifyAssertion(changed, key, rp))).toBe("PASSKEY_INVALID 400");
      }),
      { seed: 0x7a55, numRuns: 150 },
    );
    // The cases the property must include: a length that is no base64 at all, in each field.
    for (const field of ["clientDataJSON", "authenticatorData", "signature"]) {
      expect(await outcome(() => verifyAssertion({ ...good, response: { ...good.response, [field]: "A" } }, key, rp))).toBe(
        "PASSKEY_INVALID 400",
      );
    }
  });

  it("a stored key that is not a point on P-256 refuses the approval with 400, not a 500", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    const good = (await authenticator.assert({ challenge })) as AssertionCredential;
    const notAPoint = b64url(Uint8Array.of(4, ...new Uint8Array(32).fill(1), ...new Uint8Array(32).fill(2)));
    expect(await outcome(() => verifyAssertion(good, { publicKey: notAPoint, signCount: 0 }, rp))).toBe("PASSKEY_INVALID 400");
  });

  it("a registration whose COSE key is not a point on P-256 is refused at enrolment", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    const registration = (await authenticator.register({ challenge })) as RegistrationCredential;
    expect(await outcome(() => verifyRegistration(registration, rp))).toBe("accepted");
    // The COSE key's x coordinate follows its label -2 (0x21) and a 32-byte string head (0x58 0x20):
    // change one byte of it, and the (x, y) pair is no longer on the curve.
    const bytes = fromB64url(registration.response.attestationObject);
    const at = bytes.findIndex((_, i) => bytes[i] === 0x21 && bytes[i + 1] === 0x58 && bytes[i + 2] === 0x20);
    expect(at).toBeGreaterThan(0);
    bytes[at + 3] = bytes[at + 3]! ^ 0x01;
    const bent = { ...registration, response: { ...registration.response, attestationObject: b64url(bytes) } };
    expect(await outcome(() => verifyRegistration(bent, rp))).toBe("PASSKEY_INVALID 400");
  });

  it("a registration with any base64url text as its attestation object or client data is 400, never unhandled", async () => {
    const authenticator = await SoftwareAuthenticator.create();
    const registration = (await authenticator.register({ challenge })) as RegistrationCredential;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("clientDataJSON", "attestationObject"), base64urlText, async (field, text) => {
        const changed = { ...registration, response: { ...registration.response, [field]: text } };
        expect(await outcome(() => verifyRegistration(changed, rp))).toBe("PASSKEY_INVALID 400");
      }),
      { seed: 0x7a56, numRuns: 100 },
    );
  });
});
