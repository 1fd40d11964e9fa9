// Picks the provider adapter from configuration (CONTRACT §10: PROVIDER = sandbox | onfido).
import { misconfigured, secret, type Bindings } from "../config/settings";
import { OnfidoProvider } from "./onfido";
import type { IdentityProvider } from "./provider";
import { SandboxProvider } from "./sandbox";

export function providerFor(env: Bindings): IdentityProvider {
  if (env.PROVIDER === "onfido") return new OnfidoProvider(env.ONFIDO_API_URL, secret(env, "ONFIDO_API_TOKEN"));
  if (env.PROVIDER === "sandbox") return new SandboxProvider(env.DB);
  throw misconfigured();
}
