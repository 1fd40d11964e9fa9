// The receipts' public keys, mounted at /.well-known.
import { mountOperations } from "../named-route";
import { readJwksRoute } from "./read-jwks";

export const jwksRoutes = mountOperations(readJwksRoute);
