// TEST ONLY. A wallet for development and tests (docs/digital-id.md): issue an mDL, an EU proof-of-age mdoc or an
// SD-JWT VC for a chosen age under the committed test IACA root (or any other issuer made here), and
// answer the service's Digital Credentials API requests as a real wallet would, with knobs for each
// fault the verifier must refuse. Web Crypto, cbor-x, @hpke/core and jose: it runs in workerd and Node.
export { makeIssuer, toPem, fromPem, type Issuer } from "./certificates";
export { testRoot, TEST_IACA_NAME } from "./test-root";
export { issueMdoc, MDL, EU_AGE, type Mdoc } from "./mdoc";
export { issueSdJwtVc, type SdJwtVc } from "./sd-jwt-vc";
export { answer, sealAnnexC, sealOpenId4Vp, type AnswerOptions, type DigitalRequest, type DigitalResponse } from "./answer";

import { makeIssuer, type Issuer } from "./certificates";

/** A document signer under `root`, as an IACA issues one (mdoc DS extended key usage 1.0.18013.5.1.2). */
export const documentSigner = (root: Issuer, options: Partial<Parameters<typeof makeIssuer>[0]> = {}) =>
  makeIssuer({ subject: "TEST ONLY document signer", issuer: root, ca: false, extendedKeyUsage: "1.0.18013.5.1.2", ...options });
export { issueStatusList, packStatuses, deflate, STATUS, type StatusListOptions } from "./status-list";
