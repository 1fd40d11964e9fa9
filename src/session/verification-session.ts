import { DurableObject } from "cloudflare:workers";

/** One object per verification session: the only writer of its status. */
export class VerificationSession extends DurableObject<Env> {}
