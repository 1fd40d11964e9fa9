// GET /console: the merchant console for business accounts. A server-rendered shell with every
// section hidden; assets/console.browser.js signs in and fills the sections from the JSON API.
import { Field, FormNotice } from "../../web/form-field";
import { KeyCallbacksPanel, SessionCallbacksPanel } from "./console-callbacks";
import { ConsoleTable } from "./console-table";
import { SecretField } from "./secret-field";
import { ForgotPasswordForm } from "../../web/forgot-password-form";
import { SESSION_STATUSES } from "../../session/session-status";
import { Brand, Layout, NoScript } from "../../web/layout";

/** Alphabetical, as the filters and the totals list them. */
const STATUSES = [...SESSION_STATUSES].sort();

export function ConsolePage({ development }: { development: boolean }) {
  return (
    <Layout title="Merchant console" styles={["console.css"]} scripts={["common.js", "console.js"]} wide>
      <main id="console-app" data-development={development ? "true" : "false"} data-busy-words="Sending…">
        <div class="topbar">
          <Brand subtitle="Merchant console" />
          <span class="topbar-links">
            <a href="/docs">API reference</a>
            <button type="button" class="btn small secondary" id="sign-out" hidden>
              Sign out
            </button>
            <button type="button" class="btn small link" id="sign-out-everywhere" hidden>
              Sign out everywhere
            </button>
          </span>
        </div>
        {/* The signed-in console's page heading; each section has its own h2. */}
        <h1 class="sr-only" id="console-heading" hidden>
          Merchant console
        </h1>
        <NoScript />
        <div class="tabs sections" id="console-nav" role="tablist" aria-label="Console sections" hidden>
          <button type="button" role="tab" id="tab-keys" aria-controls="section-keys" aria-selected="true">
            API keys
          </button>
          <button type="button" role="tab" id="tab-usage" aria-controls="section-usage" aria-selected="false" tabindex={-1}>
            Usage
          </button>
          <button type="button" role="tab" id="tab-account" aria-controls="section-account" aria-selected="false" tabindex={-1}>
            Account
          </button>
        </div>
        <div id="console-banner" class="notice error" role="alert" hidden></div>

        <section id="console-loading" class="card">
          <div class="spinner" aria-hidden="true"></div>
          <p class="muted center">Loading…</p>
        </section>

        <AuthSection />
        {/* A person's own account is managed on /account (the end user's pages, in their language), not here. */}
        <section id="console-personal" class="card" hidden aria-labelledby="personal-title">
          <h1 id="personal-title">This console is for business accounts</h1>
          <p>
            You are signed in with a personal account: your email, password, passkeys and identity are on your account page. API keys and
            usage belong to business accounts.
          </p>
          <a class="btn" id="personal-account" href="/account">
            Open your account page
          </a>
        </section>
        <section id="console-unverified" class="card" hidden aria-labelledby="unverified-title">
          <h1 id="unverified-title">Confirm your email address</h1>
          <p>
            We sent a confirmation link to <strong id="unverified-email"></strong>. API keys are created by verified business accounts only.
          </p>
          {development ? (
            <p class="notice warn">
              <span class="sandbox-badge">Development</span> Mail goes to the outbox:{" "}
              <a id="outbox-hint" href="/dev/outbox" target="_blank" rel="noopener">
                <code id="outbox-hint-text"></code>
              </a>
            </p>
          ) : null}
          <div id="unverified-notice" class="notice info" role="status" hidden></div>
          <div class="actions">
            <button type="button" class="btn" id="recheck-email">
              I have confirmed it
            </button>
            <button type="button" class="btn secondary" id="resend-email">
              Send the link again
            </button>
          </div>
        </section>

        <KeysSection />
        <UsageSection />
        <AccountSection />

        <dialog id="confirm-dialog" aria-labelledby="confirm-title">
          {/* biome-ignore lint/a11y/useHeadingContent: console.browser.js writes each question's title before it opens the dialog */}
          <h2 id="confirm-title"></h2>
          <p id="confirm-text"></p>
          <div class="actions">
            <button type="button" class="btn danger" id="confirm-yes"></button>
            <button type="button" class="btn secondary" id="confirm-no">
              Cancel
            </button>
          </div>
        </dialog>
      </main>
    </Layout>
  );
}

function AuthSection() {
  return (
    <section id="console-auth" class="card" hidden aria-label="Sign in">
      <h1>Merchant console</h1>
      <p class="lede">Create API keys for your servers and follow your age-verification sessions.</p>
      <div class="tabs" role="tablist" aria-label="Account">
        <button type="button" role="tab" id="tab-signin" aria-controls="panel-signin" aria-selected="true">
          Sign in
        </button>
        <button type="button" role="tab" id="tab-signup" aria-controls="panel-signup" aria-selected="false" tabindex={-1}>
          Create a business account
        </button>
      </div>
      <div id="panel-signin" role="tabpanel" aria-labelledby="tab-signin">
        <form id="signin-form" novalidate>
          <FormNotice />
          <Field form="signin" name="email" label="Email" type="email" autocomplete="email" required />
          <Field form="signin" name="password" label="Password" type="password" autocomplete="current-password" required />
          <button type="submit" class="btn">
            Sign in
          </button>
        </form>
        <ForgotPasswordForm />
      </div>
      <div id="panel-signup" role="tabpanel" aria-labelledby="tab-signup" hidden>
        <form id="signup-form" novalidate>
          <FormNotice />
          <Field
            form="signup"
            name="companyName"
            label="Company name"
            autocomplete="organization"
            required
            hint="End users see it when you ask them to confirm their age."
          />
          <div class="row">
            <Field form="signup" name="firstName" label="First name (optional)" autocomplete="given-name" />
            <Field form="signup" name="lastName" label="Last name (optional)" autocomplete="family-name" />
          </div>
          <Field form="signup" name="email" label="Work email" type="email" autocomplete="email" required />
          <Field
            form="signup"
            name="password"
            label="Password"
            type="password"
            autocomplete="new-password"
            required
            hint="8 to 128 characters."
          />
          <button type="submit" class="btn">
            Create business account
          </button>
        </form>
      </div>
    </section>
  );
}

function KeysSection() {
  return (
    <section id="section-keys" role="tabpanel" aria-labelledby="tab-keys" hidden>
      {/* One column: the keys table takes the whole width (six columns were cramped beside the recipe). */}
      <div>
        <div>
          <section id="new-key" class="card accent" hidden aria-labelledby="new-key-title">
            <h2 id="new-key-title" tabindex={-1}>
              Your new key
            </h2>
            <p class="notice warn">
              Copy both values now and store them in your server's secret store. They will not be shown again: after you leave or reload
              this page, only the key's prefix is visible.
            </p>
            <SecretField id="new-api-key" label="API key (send as X-API-Key from your server)" copyName="Copy the API key" />
            <SecretField id="new-signing-secret" label="Signing secret (verifies your callbacks)" copyName="Copy the signing secret" />
            <div id="copy-status" class="notice ok" role="status" hidden></div>
            <h3>Next: open a session from your server</h3>
            <pre class="example wrap" id="new-key-curl"></pre>
            <button type="button" class="btn secondary" id="new-key-done">
              I have stored them
            </button>
          </section>
          <div class="card">
            {/* Takes the focus when the new key's panel closes or a revoke leaves no next key. */}
            <h2 id="keys-title" tabindex={-1}>
              API keys
            </h2>
            <form id="create-key-form" novalidate>
              <FormNotice />
              <div class="row">
                <Field form="create-key" name="name" label="Key name" required maxLength={64} hint="For example: production server." />
                <div class="field">
                  <label for="create-key-mode">Mode</label>
                  <select id="create-key-mode" name="mode">
                    <option value="live">Live: real identity checks</option>
                    <option value="test">Test: sessions answered without a check</option>
                  </select>
                </div>
              </div>
              <button type="submit" class="btn">
                Create key
              </button>
            </form>
            <ConsoleTable
              id="keys-table"
              label="API keys"
              class="mt"
              stacked
              hidden
              columns={["Name", "Mode", "Prefix", "Created", "Last used", "Status", { hidden: "Actions" }]}
            >
              <p id="keys-empty" class="empty" hidden>
                No keys yet. Create one for each server that opens verification sessions.
              </p>
            </ConsoleTable>
          </div>
          <KeyCallbacksPanel />
        </div>
        <aside class="card" aria-labelledby="rotate-title">
          <h2 id="rotate-title">Rotating a key</h2>
          <ol class="recipe">
            <li>Create a new key here.</li>
            <li>Deploy it, with its signing secret, to your servers.</li>
            <li>Revoke the old key. It stops working on its very next request.</li>
          </ol>
          <p class="muted mt">
            Keep keys on your servers. Never put a key in a web page, an app, a QR code or a link: the browser only ever needs a session's{" "}
            <code>session_id</code> and <code>nonce</code>.
          </p>
        </aside>
      </div>
    </section>
  );
}

function UsageSection() {
  return (
    <section id="section-usage" role="tabpanel" aria-labelledby="tab-usage" hidden>
      <div class="card">
        <form id="range-form" novalidate>
          <FormNotice />
          <div class="row">
            <Field form="range" name="from" label="From" type="date" required />
            <Field form="range" name="to" label="To" type="date" required />
            <div class="field">
              <label for="range-mode">Sessions</label>
              {/* Test sessions are counted apart from live ones (GET /api/usage/summary?mode=test). */}
              <select id="range-mode" name="mode">
                <option value="live">Live</option>
                <option value="test">Test</option>
              </select>
            </div>
          </div>
          <div class="actions">
            <button type="submit" class="btn">
              Show
            </button>
            <button type="button" class="btn secondary" id="download-csv">
              Download CSV
            </button>
          </div>
        </form>
      </div>
      <div class="stats" id="stats" aria-live="polite">
        {["total", "approved", "denied", "expired", "pending"].map((name) => (
          <div class="stat">
            <div class="label">{name}</div>
            <div class="value" id={`stat-${name}`}>
              –
            </div>
          </div>
        ))}
      </div>
      <div class="card">
        <h2>Sessions per day</h2>
        <div id="chart"></div>
        <ul class="legend">
          {STATUSES.map((status) => (
            <li>
              <span class={`sw-${status}`}></span>
              {status.toLowerCase()}
            </li>
          ))}
        </ul>
      </div>
      <div class="card">
        <h2>By key</h2>
        <ConsoleTable
          id="by-key-table"
          label="Sessions by key"
          stacked
          columns={["Key", "Prefix", "Total", "Approved", "Denied", "Expired", "Pending"]}
        />
      </div>
      <div class="card">
        <h2 id="log-title" tabindex={-1}>
          Session log
        </h2>
        <div class="field">
          <label for="log-status">Status</label>
          <select id="log-status">
            <option value="">All statuses</option>
            {STATUSES.map((status) => (
              <option value={status}>{status.toLowerCase()}</option>
            ))}
          </select>
        </div>
        <ConsoleTable
          id="log-table"
          label="Session log"
          stacked
          hidden
          columns={["Session", "Mode", "Status", "Reference", "Age", "Key", "Created", "Resolved", { hidden: "Callbacks" }]}
        />
        <SessionCallbacksPanel />
        <div id="log-empty" hidden>
          <p id="log-none" class="empty">
            No sessions in the last 30 days: open one with your API key (<code>POST /api/age-verification/session</code>), see the quick
            start in the README.
          </p>
          <div id="log-no-match" class="empty" hidden>
            <p>No sessions match these filters.</p>
            <button type="button" class="btn secondary small" id="clear-filters">
              Clear filters
            </button>
          </div>
        </div>
        <div class="actions">
          <button type="button" class="btn secondary" id="load-more" hidden>
            Load more
          </button>
        </div>
      </div>
    </section>
  );
}

function AccountSection() {
  return (
    <section id="section-account" role="tabpanel" aria-labelledby="tab-account" hidden>
      <div class="grid two">
        <div>
          <div class="card">
            <h2>Profile</h2>
            <p class="muted" id="profile-summary"></p>
            <form id="profile-form" novalidate>
              <FormNotice />
              <Field form="profile" name="companyName" label="Company name" autocomplete="organization" />
              <div class="row">
                <Field form="profile" name="firstName" label="First name" autocomplete="given-name" />
                <Field form="profile" name="lastName" label="Last name" autocomplete="family-name" />
              </div>
              <button type="submit" class="btn">
                Save profile
              </button>
            </form>
          </div>
          <div class="card">
            <h2>Change password</h2>
            <form id="password-form" novalidate>
              <FormNotice />
              <Field
                form="password"
                name="currentPassword"
                label="Current password"
                type="password"
                autocomplete="current-password"
                required
              />
              <Field
                form="password"
                name="newPassword"
                label="New password"
                type="password"
                autocomplete="new-password"
                required
                hint="Signs out every other device."
              />
              <button type="submit" class="btn">
                Change password
              </button>
            </form>
          </div>
          <div class="card">
            <h2>Change email</h2>
            <form id="email-form" novalidate>
              <FormNotice />
              <Field form="email" name="newEmail" label="New email" type="email" autocomplete="email" required />
              <Field form="email" name="password" label="Password" type="password" autocomplete="current-password" required />
              <button type="submit" class="btn">
                Send a confirmation link
              </button>
            </form>
          </div>
        </div>
        <aside class="card">
          <h2>Delete account</h2>
          <p>
            Deleting removes your account and usage log, revokes every API key at once and expires your pending sessions. Your email address
            must be confirmed first.
          </p>
          <div id="delete-notice" class="notice error" role="alert" hidden></div>
          <Field
            form="delete"
            name="password"
            label="Password"
            type="password"
            autocomplete="current-password"
            hint="Needed unless you signed in within the last 10 minutes."
          />
          <button type="button" class="btn danger" id="delete-account">
            Delete account
          </button>
        </aside>
      </div>
    </section>
  );
}

/** The page's HTML, as public/console/<production|development>.html holds it (test/node/console-static.test.ts). */
export async function renderConsolePage({ development }: { development: boolean }): Promise<string> {
  return await (<ConsolePage development={development} />).toString();
}
