// GET /docs: the API reference, rendered from the OpenAPI document (api-reference.ts reads it). A static
// file, public/docs.html, written with public/api/openapi.json by `npm run openapi`
// (test/node/openapi-static.test.ts): neither can change while a deployment lives, so the Worker carries
// neither the page nor the document builder. No script and no third-party asset: the apps' stylesheet
// and its own (api-reference.css) only, under the strict CSP (public/_headers).
//
// Finding things without a script: the index stays beside the operations on a wide screen and one tap
// away (a fixed "Index" link) on a phone. Every box that scrolls sideways is a labelled region a keyboard
// can reach (tabindex 0). The repository's guides (docs/*.md) are named, not linked: this deployment
// serves no docs/ folder and the page does not know where the repository lives, so a link would break.
import type { Child } from "hono/jsx";
import { Brand, Layout } from "./layout";
import {
  type Field,
  type ReferenceBody,
  type ReferenceCallback,
  type ReferenceDocument,
  type ReferenceOperation,
  referenceCallbacks,
  referenceOperations,
} from "./api-reference";
import { CALLBACK_VERIFY_EXAMPLE } from "./callback-verify-example";

const SECURITY_TEXT: Record<string, string> = {
  apiKey: "X-API-Key: your merchant API key (server-side only)",
  bearer: "Authorization: Bearer <account JWT>",
  webhookSignature: "X-SHA2-Signature: the provider's HMAC of the raw body",
};

/** A box that may scroll sideways: reachable and named for a keyboard and a screen reader. */
function Scroller({ label, children }: { label: string; children: Child }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a scrolling box inside an operation's section, not a section of its own: the role only lets a keyboard and a screen reader reach it (axe's scrollable-region-focusable)
    <div class="table-wrap" tabindex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

function Example({ label, text, kind = "example" }: { label: string; text: string; kind?: string }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the pre itself scrolls; the role only lets a keyboard and a screen reader reach it (axe's scrollable-region-focusable)
    <pre class={kind} tabindex={0} role="region" aria-label={label}>
      <code>{text}</code>
    </pre>
  );
}

const GUIDE = /(docs\/[\w-]+(?:\/[\w-]+)*\.md|`[^`]+`)/;

/**
 * Prose from the document: `code` in backticks as code, and a repository guide (docs/….md) as its
 * labelled name (see the note at the top of the page), never as plain text that looks like a link.
 */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(GUIDE).map((part) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
          <code>{part.slice(1, -1)}</code>
        ) : GUIDE.test(part) ? (
          <span class="guide">
            guide <code>{part}</code> (in the repository)
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Fields({ fields, label }: { fields: Field[]; label: string }) {
  if (!fields.length) return null;
  return (
    <Scroller label={label}>
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
                {field.note ? (
                  <span class="muted">
                    {" "}
                    <Prose text={field.note} />
                  </span>
                ) : null}
              </td>
              <td>{field.type}</td>
              <td>{field.required ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroller>
  );
}

/** A body's fields and example; a response's fields fold away (its example shows the shape), which keeps the page short on a phone. */
function Body({ body, label, foldFields = false }: { body: ReferenceBody; label: string; foldFields?: boolean }) {
  const fields = <Fields fields={body.fields} label={`Fields of ${label}`} />;
  return (
    <>
      {foldFields && body.fields.length ? (
        <details class="fields-fold">
          <summary>Fields ({body.fields.length})</summary>
          {fields}
        </details>
      ) : (
        fields
      )}
      {body.example === undefined ? (
        <p class="muted">
          Content type <code>{body.mediaType}</code>.
        </p>
      ) : (
        <Example label={`Example of ${label}`} text={JSON.stringify(body.example, null, 2)} />
      )}
    </>
  );
}

function Operation({ operation }: { operation: ReferenceOperation }) {
  const route = `${operation.method} ${operation.path}`;
  return (
    <section class="card operation" id={operation.id} data-route={`${operation.method} ${operation.path}`}>
      <h3>
        <span class={`method method-${operation.method.toLowerCase()}`}>{operation.method}</span>{" "}
        <code class="route">{operation.path}</code>
      </h3>
      <p>{operation.summary}</p>
      {operation.description ? (
        <p class="muted">
          <Prose text={operation.description} />
        </p>
      ) : null}
      <p class="muted">
        Authentication: {operation.security.length ? operation.security.map((name) => SECURITY_TEXT[name] ?? name).join("; ") : "none"}
      </p>
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
          <Body body={operation.requestBody} label={`the request body of ${route}`} />
        </>
      ) : null}
      <h4>Request example</h4>
      <Example kind="example request-example" label={`Request example of ${route}`} text={operation.requestExample} />
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
          {response.body ? <Body body={response.body} label={`the ${response.status} response of ${route}`} foldFields /> : null}
        </details>
      ))}
    </section>
  );
}

const tagId = (tag: string) => `tag-${tag.replace(/\W+/g, "-")}`;

function Callback({ callback }: { callback: ReferenceCallback }) {
  return (
    <section class="card operation callback" id={callback.id} data-event={callback.event}>
      <h3>
        <span class="method">POST</span> <code class="route">{callback.event}</code>
      </h3>
      {callback.description ? (
        <p class="muted">
          <Prose text={callback.description} />
        </p>
      ) : null}
      <h4>Headers</h4>
      <ul class="params">
        {callback.headers.map((header) => (
          <li>
            <code>{header.name}</code>: <Prose text={header.description} />
          </li>
        ))}
      </ul>
      {callback.body ? (
        <>
          <h4>Body</h4>
          <Body body={callback.body} label={`the ${callback.event} callback`} />
        </>
      ) : null}
    </section>
  );
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: the signed string's shape, as Standard Webhooks writes it, not a template
const SIGNED_STRING = "${webhook-id}.${webhook-timestamp}.${body}";

function CallbacksSection({ callbacks }: { callbacks: ReferenceCallback[] }) {
  return (
    <section aria-labelledby="callbacks">
      <h2 id="callbacks">Callbacks to your server</h2>
      <p>
        When a session is resolved the service POSTs a signed event to the session's <code>callback_url</code> (Standard Webhooks v1).
        Verify every request before you trust it: compute HMAC-SHA256 over <code>{SIGNED_STRING}</code> (the raw body, before any JSON
        parsing) keyed with the base64-decoded part of your signing secret after <code>whsec_</code>, and accept the request when one of the
        space-separated <code>v1,&lt;base64&gt;</code> entries of <code>webhook-signature</code> matches in constant time. Reject a{" "}
        <code>webhook-timestamp</code> more than five minutes from your clock, and de-duplicate on <code>webhook-id</code>. During a
        signing-secret rotation's grace a callback carries two signatures, newest first.
      </p>
      <section class="card operation" id="verify-callback" aria-labelledby="verify-callback-title">
        <h3 id="verify-callback-title">Verifying a callback (Node, no dependency)</h3>
        <Example label="Callback verification example" text={CALLBACK_VERIFY_EXAMPLE} />
        <p class="muted">
          Libraries that implement Standard Webhooks (<code>standardwebhooks</code> for Node and Python) do the same; the{" "}
          <span class="guide">
            guide <code>docs/callbacks.md</code> (in the repository)
          </span>{" "}
          has examples in Node, Python and Go, the retry schedule and redelivery.
        </p>
      </section>
      {callbacks.map((callback) => (
        <Callback callback={callback} />
      ))}
    </section>
  );
}

function Index({ tags, operations, callbacks }: { tags: string[]; operations: ReferenceOperation[]; callbacks: ReferenceCallback[] }) {
  return (
    <nav class="card toc" id="index" aria-label="Index" tabindex={-1}>
      <h2 class="toc-title">Index</h2>
      {tags.map((tag) => (
        <>
          <h3>
            <a href={`#${tagId(tag)}`}>{tag}</a>
          </h3>
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
      <h3>
        <a href="#callbacks">Callbacks to your server</a>
      </h3>
      <ul>
        <li>
          <a href="#verify-callback">Verifying a callback</a>
        </li>
        {callbacks.map((callback) => (
          <li>
            <a href={`#${callback.id}`}>{callback.event}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ApiReferencePage({ document }: { document: ReferenceDocument }) {
  const operations = referenceOperations(document);
  const callbacks = referenceCallbacks(document);
  const tags = [...new Set(operations.map((operation) => operation.tag))];
  return (
    <Layout title={`${document.info.title} · API reference`} styles={["api-reference.css"]} scripts={[]} wide>
      <header class="topbar">
        <Brand subtitle={`API reference ${document.info.version}`} />
        <a href="/console">Merchant console</a>
      </header>
      <main id="api-reference">
        <h1 class="sr-only">API reference</h1>
        <p class="lede">{document.info.description}</p>
        <p class="muted">
          Generated from <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {"3.1"}, version {document.info.version}). Errors share
          one envelope: <code>{'{"success": false, "error": "CODE", "message": "…", "errors": []}'}</code>. Request examples use{" "}
          <code>$BASE_URL</code> for this deployment's origin and shell variables for your credentials and ids.
        </p>
        <p class="muted guides-note">
          Guides named here, such as <code>docs/callbacks.md</code>, are Markdown files in the <code>docs/</code> folder of the service's
          source repository. This deployment does not serve them, so they are named rather than linked.
        </p>
        <div class="reference-layout">
          <Index tags={tags} operations={operations} callbacks={callbacks} />
          <div class="reference-body">
            {tags.map((tag) => (
              <section aria-labelledby={tagId(tag)}>
                <h2 id={tagId(tag)}>{tag}</h2>
                <p class="muted">
                  <Prose text={document.tags?.find((t) => t.name === tag)?.description ?? ""} />
                </p>
                {/* The provider's intake shares the word with the callbacks merchants receive: point there. */}
                {tag === "Webhooks" ? (
                  <p class="notice info">
                    Looking for the callbacks this service sends to your server? See <a href="#callbacks">Callbacks to your server</a>.
                  </p>
                ) : null}
                {operations
                  .filter((operation) => operation.tag === tag)
                  .map((operation) => (
                    <Operation operation={operation} />
                  ))}
              </section>
            ))}
            <CallbacksSection callbacks={callbacks} />
          </div>
        </div>
        <a class="to-index" href="#index">
          Index
        </a>
      </main>
    </Layout>
  );
}

/** The page's HTML, as public/docs.html holds it. */
export async function renderApiReferencePage(document: ReferenceDocument): Promise<string> {
  return await (<ApiReferencePage document={document} />).toString();
}
