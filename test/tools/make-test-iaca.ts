// TEST ONLY. Writes the committed test IACA root (test-iaca.pem) and its private key (test-iaca-key.json)
// that the development configuration trusts and the test wallet issues under. Production refuses this
// root (docs/api-contract.md §Digital ID). Run again (from the repository root) only to replace it: `npx tsx test/tools/make-test-iaca.ts`.
import { writeFile } from "node:fs/promises";
import { makeIssuer, toPem } from "../wallet/certificates";
import { TEST_IACA_NAME } from "../wallet/test-root";

const root = await makeIssuer({
  subject: TEST_IACA_NAME,
  ca: true,
  notBefore: new Date("2026-01-01T00:00:00Z"),
  notAfter: new Date("2046-01-01T00:00:00Z"),
});
await writeFile("test/wallet/test-iaca.pem", toPem(root.certificate));
await writeFile("test/wallet/test-iaca-key.json", `${JSON.stringify(await crypto.subtle.exportKey("jwk", root.privateKey), null, 2)}\n`);
