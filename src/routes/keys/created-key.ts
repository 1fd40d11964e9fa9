// What creating a key answers (and, without the API key, what rotating its signing secret answers):
// the secrets are shown this once.
import * as z from "zod";
import { ApiKeyRecord } from "../../domain/keys";

export const CreatedKey = z.object({
  key: ApiKeyRecord,
  apiKey: z.string().describe("svc_sk_live_… or svc_sk_test_…: shown this once; only its hash is stored."),
  signingSecret: z.string().describe("whsec_…: shown this once; signs this key's callbacks."),
});
