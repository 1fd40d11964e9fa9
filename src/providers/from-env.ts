// Picks the provider adapter from the settings (docs/api-contract.md §Development: PROVIDER = sandbox | onfido), once per
// isolate (src/service.ts). A provider that cannot be used (an unknown PROVIDER, Onfido without its
// token) fails each call with 503 MISCONFIGURED, as the first call would have: choosing it never throws.
import { misconfigured, type Settings } from "../config/settings";
import type { IdentityProvider } from "../context/identity-provider";
import { OnfidoProvider } from "./onfido";
import { SandboxProvider } from "./sandbox";

function unusableProvider(setting: string, problem: string): IdentityProvider {
  const refuse = async (): Promise<never> => {
    throw misconfigured([{ setting, problem }]);
  };
  return {
    name: "onfido",
    createApplicant: refuse,
    updateApplicant: refuse,
    createSdkToken: refuse,
    createCheck: refuse,
    readCheck: refuse,
    deleteApplicant: refuse,
  };
}

export function providerFor(settings: Settings, db: D1Database): IdentityProvider {
  if (settings.provider === "sandbox") return new SandboxProvider(db);
  if (settings.provider !== "onfido") return unusableProvider("PROVIDER", "must be sandbox or onfido");
  const token = settings.secrets.ONFIDO_API_TOKEN;
  return token ? new OnfidoProvider(settings.onfidoApiUrl, token) : unusableProvider("ONFIDO_API_TOKEN", "is missing");
}
