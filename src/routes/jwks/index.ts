// The receipts' public keys, mounted at /.well-known: the live key set and the test receipts' key.
import { mountOperations } from "../named-route";
import { readJwksRoute } from "./read-jwks";
import { readTestJwksRoute } from "./read-test-jwks";

export const jwksRoutes = mountOperations(readJwksRoute, readTestJwksRoute);
