// The committed test IACA root (test/wallet/test-iaca.pem) is public together with its private key, so
// anyone can issue credentials under it: production must refuse to serve with it among the trust
// anchors (docs/configuration.md). Recognised by its public key (SubjectPublicKeyInfo), not by the
// certificate's bytes: an anchor's own signature is never checked, so a copy with one byte of its
// signature changed, or re-issued around the same key with another name or validity, is the same
// anchor. test/digital-id/test-anchor.test.ts keeps the constant equal to the committed file's key.
import { toBase64 } from "../lib/encoding";
import type { Certificate } from "./x509";

/** The committed test root's SubjectPublicKeyInfo (DER, base64): a public key, nothing secret. */
export const TEST_IACA_SPKI_BASE64 =
  "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEJ8yjthPW1pbZr80nix7LFp58/39fylLKlXAMKGys0NYKHwSJRn/mzT2V5Djcngj+MdsXUvtrLDQxLaNPpOhJNg==";

/** Whether any anchor carries the committed test root's key (synchronous: the settings parse, src/config/problems.ts, uses it). */
export const includesTestAnchor = (anchors: Certificate[]): boolean =>
  anchors.some((anchor) => toBase64(anchor.spki) === TEST_IACA_SPKI_BASE64);
