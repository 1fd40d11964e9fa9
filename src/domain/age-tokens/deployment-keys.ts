// The deployment's token keys: AGE_TOKEN_KEYS imported once per isolate (one memo per settings object,
// src/lib/per-object.ts), since importing RSA keys costs milliseconds and the setting never changes
// while the isolate lives. Unset: the deployment offers no tokens. A value that does not import is
// the deployment's fault, answered 503 MISCONFIGURED at first use (the sync checks of the value are in
// src/config/problems.ts), and stays refused: the memo keeps the failure, so nothing half-works.
import { misconfigured, type Settings } from "../../config/settings";
import { perObject } from "../../lib/per-object";
import { AGE_TOKEN_KEYS_SETTING, loadTokenKeys, TokenKeysMisconfigured, type TokenKeys } from "./token-keys";

const importedKeys = perObject((settings: Settings): Promise<TokenKeys> | null => {
  if (settings.ageTokenKeys === undefined) return null;
  const keys = loadTokenKeys(settings.ageTokenKeys);
  // Handled where awaited; this only keeps a failed import from being reported as unhandled meanwhile.
  keys.catch(() => undefined);
  return keys;
});

/** The published token keys, or null when the deployment offers no tokens; 503 MISCONFIGURED when they do not import. */
export async function deploymentTokenKeys(settings: Settings): Promise<TokenKeys | null> {
  const keys = importedKeys(settings);
  if (keys === null) return null;
  try {
    return await keys;
  } catch (error) {
    if (!(error instanceof TokenKeysMisconfigured)) throw error;
    throw misconfigured([{ setting: AGE_TOKEN_KEYS_SETTING, problem: error.message.slice(AGE_TOKEN_KEYS_SETTING.length + 2) }]);
  }
}
