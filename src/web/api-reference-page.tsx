// GET /docs: the API reference, rendered from the OpenAPI document (api-reference.ts reads it). A static
// file, public/docs.html, written with public/api/openapi.json by `npm run openapi`
// (test/node/openapi-static.test.ts): neither can change while a deployment lives, so the Worker carries
// neither the page nor the document builder. No script and no third-party asset: the apps' stylesheet
// only, under the strict CSP (public/_headers).
import { Brand, Layout } from "./layout";
import { type Field, type ReferenceBody, type ReferenceDocument, type ReferenceOperation, referenceOperations } from "./api-reference";

const SECURITY_TEXT: Record<string, string> = {
  apiKey: "X-API-Key: your merchant API key (server-side only)",
  bearer: "Authorization: Bearer <account JWT>",
  webhookSignature: "X-SHA2-Signature: the provider's HMAC of the raw body",
};

function Fields({ fields }: { fields: Field[] }) {
  if (!fields.length) return null;
  return (
    <div class="table-wrap">
      <table class="fields">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr>
              <td>
                <code>{field.path}</code>
                {field.note ? <span class="muted"> {field.note}</span> : null}
              </td>
              <td>{field.type}</td>
              <td>{field.required ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Body({ body }: { body: ReferenceBody }) {
  return (
    <>
      <Fields fields={body.fields} />
      {body.example === undefined ? (
        <p class="muted">
          Content type <code>{body.mediaType}</code>.
        </p>
      ) : (
        <pre class="example">
          <code>{JSON.stringify(body.example, null, 2)}</code>
        </pre>
      )}
    </>
  );
}

function Operation({ operation }: { operation: ReferenceOperation }) {
  return (
    <section class="card operation" id={operation.id} data-route={`${operation.method} ${operation.path}`}>
      <h3>
        <span class={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span> <code class="route">{operation.path}</code>
      </h3>
      <p>{operation.summary}</p>
      {operation.description ? <p class="muted">{operation.description}</p> : null}
      <p class="muted">Authentication: {operation.security.length ? operation.security.map((name) => SECURITY_TEXT[name] ?? name).join("; ") : "none"}</p>
      {operation.parameters.length ? (
        <>
          <h4>Parameters</h4>
          <ul class="params">
            {operation.parameters.map((parameter) => (
              <li>
                <code>{parameter.name}</code> ({parameter.in}, {parameter.type}
                {parameter.required ? ", required" : ""})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {operation.requestBody ? (
        <>
          <h4>Request body</h4>
          <Body body={operation.requestBody} />
        </>
      ) : null}
      <h4>Responses</h4>
      {operation.responses.map((response) => (
        <details class="response" open={Number(response.status) < 300}>
          <summary>
            <strong>{response.status}</strong> {response.description}
          </summary>
          {response.codes.length ? (
            <p class="codes">
              Error codes:{" "}
              {response.codes.map((code, i) => (
                <>
                  {i ? ", " : ""}
                  <code>{code}</code>
                </>
              ))}
            </p>
          ) : null}
          {response.body ? <Body body={response.body} /> : null}
        </details>
      ))}
    </section>
  );
}

export function ApiReferencePage({ document }: { document: ReferenceDocument }) {
  const operations = referenceOperations(document);
  const tags = [...new Set(operations.map((operation) => operation.tag))];
  return (
    <Layout title={`${document.info.title} · API reference`} scripts={[]} wide>
      <header class="topbar">
        <Brand subtitle={`API reference ${document.info.version}`} />
        <a href="/console">Merchant console</a>
      </header>
      <main id="api-reference">
        <p class="lede">{document.info.description}</p>
        <p class="muted">
          Generated from <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {"3.1"}, version {document.info.version}). Errors share one envelope:{" "}
          <code>{'{"success": false, "error": "CODE", "message": "…", "errors": []}'}</code>.
        </p>
        <nav class="card toc" aria-label="Operations">
          {tags.map((tag) => (
            <>
              <h2>{tag}</h2>
              <ul>
                {operations
                  .filter((operation) => operation.tag === tag)
                  .map((operation) => (
                    <li>
                      <a href={`#${operation.id}`}>
                        <span class="method">{operation.method}</span> {operation.path}
                      </a>
                    </li>
                  ))}
              </ul>
            </>
          ))}
        </nav>
        {tags.map((tag) => (
          <section aria-labelledby={`tag-${tag.replace(/\W+/g, "-")}`}>
            <h2 id={`tag-${tag.replace(/\W+/g, "-")}`}>{tag}</h2>
            <p class="muted">{document.tags?.find((t) => t.name === tag)?.description}</p>
            {operations
              .filter((operation) => operation.tag === tag)
              .map((operation) => (
                <Operation operation={operation} />
              ))}
          </section>
        ))}
      </main>
    </Layout>
  );
}

/** The page's HTML, as public/docs.html holds it. */
export async function renderApiReferencePage(document: ReferenceDocument): Promise<string> {
  return await (<ApiReferencePage document={document} />).toString();
}
