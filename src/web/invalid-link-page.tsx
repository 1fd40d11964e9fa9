// What a verification link with a missing or malformed session_id or nonce opens.
import { Brand, Layout } from "./layout";

export function InvalidLinkPage() {
  return (
    <Layout title="This link is not valid" scripts={[]}>
      <main>
        <div class="topbar">
          <Brand />
        </div>
        <section class="card result" data-result="invalid">
          <div class="result-icon bad" aria-hidden="true">
            ?
          </div>
          <h1>This link is not valid</h1>
          <p>
            The link is incomplete or was changed. Open it again from the website that asked you to confirm your age, or
            scan its QR code again.
          </p>
        </section>
      </main>
    </Layout>
  );
}
