/// <reference types="vite/client" />
// A wallet in the page, for the browser tests of /verify's digital-ID way (docs/digital-id.md):
// `window.DigitalCredential` defined and `navigator.credentials.get({digital})` answered by the test wallet
// (in Node, through page.exposeFunction), the server's verification real.
import rootPem from "../wallet/test-iaca.pem?raw";
import rootKey from "../wallet/test-iaca-key.json?raw";
import type { Page } from "playwright-core";
import { MDL, answer, documentSigner, issueMdoc, testRoot, type DigitalRequest } from "../wallet";

const testRootIssuer = () => testRoot(rootPem, JSON.parse(rootKey) as JsonWebKey);

/**
 * Gives the page a wallet holding an mDL with `ages`, answering for the origin the page really has (what
 * a browser reports to a wallet). Returns how many requests the wallet was asked to answer.
 */
export async function withWallet(page: Page, ages: Record<number, boolean>) {
  const asked = { count: 0 };
  const credential = await issueMdoc({ kind: MDL, signer: await documentSigner(await testRootIssuer()), ages });
  await page.exposeFunction("testWalletAnswer", async (requestsJson: string, origin: string) => {
    asked.count++;
    return JSON.stringify(await answer(JSON.parse(requestsJson) as DigitalRequest[], credential, { origin }));
  });
  await page.addInitScript(() => {
    const page = globalThis as any;
    class DigitalCredential {
      constructor(
        readonly protocol: string,
        readonly data: unknown,
      ) {}
    }
    page.DigitalCredential = DigitalCredential;
    page.navigator.credentials.get = async (options: { digital?: { requests: unknown[] } }) => {
      if (!options.digital) throw new Error("this test wallet answers only digital requests");
      const answered = JSON.parse(await page.testWalletAnswer(JSON.stringify(options.digital.requests), page.location.origin));
      return new DigitalCredential(answered.protocol, answered.data);
    };
  });
  return asked;
}
