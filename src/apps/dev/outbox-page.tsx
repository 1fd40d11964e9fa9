// GET /dev/outbox?to=…: the development outbox as a page (development only, 404 in production), so that a
// confirmation or reset link is one click away instead of a string inside JSON. Server-rendered with no
// script; each http(s) address in a mail's text becomes a link, the rest stays text (escaped by JSX).
import { Brand, Layout } from "../../web/layout";

export type OutboxMail = { to: string; subject: string; text: string; createdAt: string };

const LINK = /(https?:\/\/[^\s<>"']+)/g;

/** The mail's text with its addresses as links (odd parts of the split are the captured addresses). */
function MailText({ text }: { text: string }) {
  return <pre class="example wrap">{text.split(LINK).map((part, index) => (index % 2 === 1 ? <a href={part}>{part}</a> : part))}</pre>;
}

export function OutboxPage({ to, mails }: { to: string | null; mails: OutboxMail[] }) {
  return (
    <Layout title="Development outbox" scripts={[]}>
      <main id="dev-outbox">
        <div class="topbar">
          <Brand subtitle="Development outbox" />
        </div>
        <section class="card" aria-labelledby="outbox-title">
          <h1 id="outbox-title">Mail sent {to ? `to ${to}` : ""}</h1>
          <p class="muted">Development only: production sends mail and keeps no outbox. Newest first.</p>
          <form method="get" action="/dev/outbox">
            <div class="field">
              <label for="outbox-to">Email address</label>
              <input id="outbox-to" name="to" type="email" value={to ?? ""} required />
            </div>
            <button type="submit" class="btn secondary">
              Show its mail
            </button>
          </form>
        </section>
        {to && mails.length === 0 ? <p class="card empty">No mail to this address in the last day.</p> : null}
        {mails.map((mail) => (
          <article class="card">
            <h2>{mail.subject}</h2>
            <p class="muted">{mail.createdAt}</p>
            <MailText text={mail.text} />
          </article>
        ))}
      </main>
    </Layout>
  );
}
