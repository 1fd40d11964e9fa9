// COSE_Sign1 headers (src/digital-id/cose.ts, RFC 9052 §3): a protected header must decode to a map, and
// `crit` may name only headers this service acts on (alg, x5chain), each of them: one it understands beside
// one it does not is refused as the unknown one alone is.
import { describe, expect, it } from "vitest";
import { encodeCbor } from "../../src/digital-id/cbor";
import { readSign1 } from "../../src/digital-id/cose";

const signature = new Uint8Array(64);
const sign1 = (protectedHeader: unknown) => [encodeCbor(protectedHeader as never), new Map(), null, signature] as never;

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return "READ";
}

describe("the COSE_Sign1 protected header", () => {
  it("one that decodes to something other than a map is refused, naming it", () => {
    expect(refusal(() => readSign1(sign1([1, -7]), "the issuer signature"))).toBe(
      "DIGITAL_ID_INVALID: The digital ID did not verify: the issuer signature protected header is not a map.",
    );
  });

  it("crit naming alg and x5chain is read; naming any other label beside them is refused", () => {
    const withCrit = (labels: unknown[]) =>
      refusal(() =>
        readSign1(
          sign1(
            new Map<number, unknown>([
              [1, -7],
              [2, labels],
            ]),
          ),
          "the issuer signature",
        ),
      );
    expect(withCrit([1, 33])).toBe("READ");
    for (const labels of [
      [1, 99],
      [99, 33],
      [1, 33, "x"],
    ]) {
      expect(withCrit(labels), String(labels)).toBe(
        "DIGITAL_ID_INVALID: The digital ID did not verify: the issuer signature marks a header critical that this service does not understand (crit).",
      );
    }
  });
});
