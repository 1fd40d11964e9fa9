// The receipts' public keys, mounted at /.well-known.
import { areaOf } from "../named-route";
import { readJwksRoute } from "./read-jwks";

export const jwksRoutes = areaOf(readJwksRoute);
