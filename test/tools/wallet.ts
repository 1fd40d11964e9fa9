// TEST ONLY. `npm run wallet -- --requests requests.json [--credential mdl|eu-age|sd-jwt] [--ages 18=true,21=false]
// [--origin http://localhost:8787] [--protocol org-iso-mdoc|openid4vp-v1-unsigned]`: issues itself a
// credential under the committed test IACA root and prints the `{protocol, data}` answer to a
// `…/digital-id/request` response (the file may hold that response's envelope, its `data`, or the bare
// `requests` array), ready to POST to `…/digital-id/response`. Development only: production refuses the root.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { EU_AGE, MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, testRoot, type DigitalRequest } from "../wallet";

const { values } = parseArgs({
  options: {
    requests: { type: "string" },
    credential: { type: "string", default: "mdl" },
    ages: { type: "string", default: "18=true" },
    origin: { type: "string", default: "http://localhost:8787" },
    protocol: { type: "string" },
  },
});
if (!values.requests) {
  process.stdout.write(
    "usage: npm run wallet -- --requests requests.json [--credential mdl|eu-age|sd-jwt] [--ages 18=true,21=false] [--origin URL] [--protocol P]\n",
  );
  process.exit(2);
}

const text = async (path: string) => new TextDecoder().decode(await readFile(path));
const parsed = JSON.parse(await text(values.requests)) as
  | { data?: { requests?: DigitalRequest[] }; requests?: DigitalRequest[] }
  | DigitalRequest[];
const requests = Array.isArray(parsed) ? parsed : (parsed.requests ?? parsed.data?.requests);
if (!requests) throw new Error("the file holds no `requests` array");

const ages = Object.fromEntries(
  (values.ages ?? "").split(",").map((pair) => {
    const [age, value] = pair.split("=");
    if (!/^\d+$/.test(age ?? "") || (value !== "true" && value !== "false")) throw new Error(`--ages: ${pair} is not AGE=true|false`);
    return [Number(age), value === "true"];
  }),
);

const root = await testRoot(await text("test/wallet/test-iaca.pem"), JSON.parse(await text("test/wallet/test-iaca-key.json")));
const signer = await documentSigner(root);
const credential =
  values.credential === "sd-jwt"
    ? await issueSdJwtVc({ signer, ages })
    : values.credential === "eu-age"
      ? await issueMdoc({ kind: EU_AGE, signer, ages })
      : await issueMdoc({ kind: MDL, signer, ages });
const protocol = values.protocol as "org-iso-mdoc" | "openid4vp-v1-unsigned" | undefined;
process.stdout.write(`${JSON.stringify(await answer(requests, credential, { origin: values.origin!, protocol }))}\n`);
