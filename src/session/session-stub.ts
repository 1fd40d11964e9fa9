// The way to a session's Durable Object: one object per session id, named by it.
import type { DomainContext } from "../context/service-context";
import type { VerificationSession } from "./verification-session";

export function sessionStub({ env }: DomainContext, sessionId: string) {
  const namespace = env.SESSIONS as DurableObjectNamespace<VerificationSession>;
  return namespace.get(namespace.idFromName(sessionId));
}
