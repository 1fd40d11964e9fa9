// The console's callback tools (docs/callbacks.md): a key's signing-secret rotation, test events and allowed
// callback origins; a session's callback attempts with Redeliver. Filled by console.browser.js.
import { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS } from "../../domain/merchant-callbacks";
import { ConsoleTable } from "./console-table";
import { SecretField } from "./secret-field";
import { Field, FormNotice } from "../../web/form-field";

export function KeyCallbacksPanel() {
  return (
    <section id="key-callbacks" class="card" hidden aria-labelledby="key-callbacks-title">
      <h2 id="key-callbacks-title" tabindex={-1}>
        Callbacks of <span id="key-callbacks-name"></span>
      </h2>
      {/* The signing secret is not the API key: rotating it changes how callbacks are signed, the key stays.
          Replacing a key ("Rotating a key", beside the table) is another thing. */}
      <h3>Signing secret</h3>
      <p class="muted">Verifies the callbacks this key's sessions send. Rotating it keeps the API key as it is.</p>
      <p id="secret-state" class="muted"></p>
      <form id="rotate-form" novalidate data-max-grace={String(MAX_GRACE_HOURS)}>
        <FormNotice />
        <Field
          form="rotate"
          name="graceHours"
          label="Grace period (hours)"
          type="number"
          value={String(DEFAULT_GRACE_HOURS)}
          hint={`0 to ${MAX_GRACE_HOURS}. Callbacks carry both signatures until it ends, so you can deploy the new secret at any moment inside it.`}
        />
        <button type="submit" class="btn secondary">
          Rotate secret
        </button>
      </form>
      <div id="rotated" class="notice warn" hidden>
        <p>Your new signing secret: copy it now, it will not be shown again.</p>
        <SecretField id="rotated-secret" label="New signing secret" copyName="Copy the new signing secret" statusId="rotated-copy-status" />
        <div id="rotated-copy-status" class="notice ok" role="status" hidden></div>
      </div>
      <h3>Test event</h3>
      <form id="test-event-form" novalidate>
        <FormNotice />
        <Field
          form="test-event"
          name="url"
          label="Endpoint URL"
          type="url"
          required
          hint="Receives one signed age_verification.test event."
        />
        <button type="submit" class="btn secondary">
          Send test event
        </button>
      </form>
      <p id="test-result" role="status" hidden></p>
      <h3>Allowed callback origins</h3>
      <form id="origins-form" novalidate>
        <FormNotice />
        <div class="field">
          <label for="origins">Allowed callback origins</label>
          <textarea id="origins" name="allowedCallbackOrigins" rows={3} aria-describedby="origins-hint origins-error"></textarea>
          <span class="hint" id="origins-hint">
            One per line, scheme://host[:port]. Sessions opened with this key must use a callback_url on one of them. Empty allows any.
          </span>
          <p class="field-error" id="origins-error" data-error-for="allowedCallbackOrigins" hidden></p>
        </div>
        <button type="submit" class="btn secondary">
          Save origins
        </button>
        <p id="origins-status" class="notice ok" role="status" hidden></p>
      </form>
      <button type="button" class="btn secondary mt" id="key-callbacks-close">
        Close
      </button>
    </section>
  );
}

export function SessionCallbacksPanel() {
  return (
    <section id="session-callbacks" class="card mt" hidden aria-labelledby="session-callbacks-title">
      <h2 id="session-callbacks-title" tabindex={-1}>
        Callbacks of <span id="session-callbacks-id" class="mono"></span>
      </h2>
      <p id="session-callbacks-event" class="muted"></p>
      <ConsoleTable id="attempts-table" label="Callback attempts" stacked columns={["Time", "Status", "Duration", "Error"]} />
      <p id="redeliver-status" role="status" hidden></p>
      <button type="button" class="btn secondary" id="redeliver">
        Redeliver
      </button>
      <button type="button" class="btn secondary" id="session-callbacks-close">
        Close
      </button>
    </section>
  );
}
