// The passkey parts of /verify (docs/passkeys.md), kept apart from the page's other steps: the offer
// to create one after identity verification, the notice of a merchant that requires one, and the
// account's passkey settings. assets/passkeys.browser.js drives them.
export function PasskeyOffer() {
  return (
    <section id="passkey-offer" class="card" hidden aria-labelledby="passkey-offer-title">
      <h2 id="passkey-offer-title">Confirm your answers with a passkey</h2>
      <p class="muted">
        A passkey lets only you, on this phone or computer, approve age requests: your fingerprint, face or screen lock
        confirms each approval, so knowing your password is not enough. We store no information about your device.
      </p>
      <div id="passkey-offer-notice" class="notice error" hidden></div>
      <div class="actions">
        <button type="button" class="btn block" id="passkey-create">
          Create a passkey
        </button>
        <button type="button" class="btn block secondary" id="passkey-skip">
          Not now
        </button>
      </div>
    </section>
  );
}

export function PasskeyRequired() {
  return (
    <p id="passkey-required" class="notice warn" role="status" hidden>
      <span id="passkey-required-text"></span>
    </p>
  );
}

export function PasskeySettings() {
  return (
    <details id="passkey-settings" class="card" hidden>
      <summary>Your passkeys</summary>
      <p class="muted">Each approval is confirmed with one of these. Remove a passkey you no longer use.</p>
      <div id="passkey-settings-notice" class="notice" hidden></div>
      <ul id="passkey-list" class="passkeys"></ul>
      <p id="passkey-empty" class="muted" hidden>
        No passkey yet: your approvals use your password sign-in.
      </p>
      <button type="button" class="btn small" id="passkey-add">
        Add a passkey
      </button>
    </details>
  );
}
