// The way to a session's Durable Object: one object per session id, named by it.
import type { ServiceContext } from "../context/service-context";
import type { VerificationSessionObject } from "./verification-session";

export function sessionStub({ sessions }: Pick<ServiceContext, "sessions">, sessionId: string) {
  const namespace = sessions as DurableObjectNamespace<VerificationSessionObject>;
  return namespace.get(namespace.idFromName(sessionId));
}
