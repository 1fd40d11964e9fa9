// Proof-of-age attestations (docs/attestations.md): the issuer's metadata, mounted at /.well-known; the
// person's offers and approvals and the IACA root, mounted at /api/attestations; the OpenID4VCI
// endpoints a wallet calls (authorize, token, nonce, credential), mounted at the root, where the
// metadata names them.
import { areaOf } from "../named-route";
import { approveAuthorizationRoute } from "./approve-authorization";
import { approveOnPageRoute } from "./approve-on-page";
import { authorizePageRoute } from "./authorize-page";
import { createNonceRoute } from "./create-nonce";
import { createOfferRoute } from "./create-offer";
import { exchangeTokenRoute } from "./exchange-token";
import { issueCredentialRoute } from "./issue-credential";
import { readAuthorizationServerMetadataRoute } from "./read-authorization-server-metadata";
import { readIacaRoute } from "./read-iaca";
import { readIssuerMetadataRoute } from "./read-issuer-metadata";

export const issuerMetadataRoutes = areaOf(readIssuerMetadataRoute, readAuthorizationServerMetadataRoute);
export const attestationRoutes = areaOf(readIacaRoute, createOfferRoute, approveAuthorizationRoute);
export const issuanceRoutes = areaOf(authorizePageRoute, approveOnPageRoute, exchangeTokenRoute, createNonceRoute, issueCredentialRoute);
