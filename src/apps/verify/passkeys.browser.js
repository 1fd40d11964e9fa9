// @ts-check
// Passkeys on the verification page (/assets/passkeys.js), loaded before verify.js: enrolment right
// after identity verification, the account's passkey settings (list, rename, remove), and the
// assertion an approval carries. The WebAuthn calls are the browser's own (navigator.credentials);
// the options come from the server as JSON with base64url fields, converted here both ways. Nothing
// else of the page is touched: verify.js calls refresh() on its decision step and assertion() when
// the user approves.

/**
 * @typedef {{ id: string, name: string, created_at: string, last_used_at: string | null }} PasskeyView
 * @typedef {{ ok: true, assertion: unknown } | { ok: false, error: string, message: string }} AssertionResult
 */

// biome-ignore lint/correctness/noUnusedVariables: a classic script\'s global, read by the pages\' other scripts
var AVS_PASSKEYS = (function () {
  "use strict";
  var A = window.AVS;
  /** @type {string | null} */
  var token = null;
  /** @type {PasskeyView[]} */
  var passkeys = [];
  var requirePasskey = false;
  var offerDismissed = false;
  // False while the offer would stand in the way of the only real answer (an under-age person's decline).
  var offerAllowed = true;
  /** @type {(() => void)[]} */
  var listeners = [];

  /** @param {string} text */
  function fromB64url(text) {
    var padded = text.replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(padded + "===".slice((padded.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }
  /** @param {ArrayBuffer} buffer */
  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  /** @param {{ type: "public-key", id: string }[]} list */
  function descriptors(list) {
    return list.map(function (item) {
      return { type: item.type, id: fromB64url(item.id) };
    });
  }

  function supported() {
    return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
  }

  // A page served in development says so (data-development), so that a broken setting can be named.
  var development = !!document.querySelector('[data-development="true"]');
  // The browser's refusal (the user cancelled, no authenticator, a timeout) in the page's words. A relying
  // party that is an IP address (APP_URL set to one) is refused by every browser as a SecurityError: in
  // development that is the setting's fault, and the page says which.
  /** @param {unknown} error @param {string} [rp] the relying party's id the server sent */
  function cancelled(error, rp) {
    var name = error instanceof Error || (error && typeof error === "object" && "name" in error) ? /** @type {Error} */ (error).name : "";
    var ipAddress = !!rp && (/^\d{1,3}(\.\d{1,3}){3}$/.test(rp) || rp.indexOf(":") >= 0 || /^\[/.test(rp));
    if (development && name === "SecurityError" && ipAddress) {
      return {
        ok: /** @type {const} */ (false),
        error: "PASSKEY_CANCELLED",
        message: A.t("passkey.rp_invalid", { rp: /** @type {string} */ (rp) }),
      };
    }
    return {
      ok: /** @type {const} */ (false),
      error: "PASSKEY_CANCELLED",
      message: A.t(name === "InvalidStateError" ? "passkey.exists" : "passkey.cancelled"),
    };
  }

  // --- Enrolment ------------------------------------------------------------------------------
  /**
   * The account's first passkey needs its password (the server refuses without it); later ones are
   * confirmed by an existing passkey instead.
   * @param {string} password @returns {Promise<{ ok: boolean, error?: string, message?: string }>}
   */
  async function enrol(password) {
    var first = passkeys.length === 0;
    /** @type {unknown} */
    var confirmed;
    if (!first) {
      var held = await confirmation();
      if (!held.ok) return held;
      confirmed = held.assertion;
    }
    var options = await A.api("POST", "/api/users/me/passkeys/registration-options", {
      token: token,
      body: first ? { password: password } : {},
    });
    if (!options.ok) return options;
    var o = options.data;
    var credential;
    try {
      credential = /** @type {PublicKeyCredential | null} */ (
        await navigator.credentials.create({
          publicKey: {
            challenge: fromB64url(o.challenge),
            rp: o.rp,
            user: { id: fromB64url(o.user.id), name: o.user.name, displayName: o.user.displayName },
            pubKeyCredParams: o.pubKeyCredParams,
            timeout: o.timeout,
            attestation: o.attestation,
            authenticatorSelection: o.authenticatorSelection,
            excludeCredentials: descriptors(o.excludeCredentials),
          },
        })
      );
    } catch (error) {
      return cancelled(error, o.rp?.id);
    }
    if (!credential) return cancelled(null);
    var response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
    var res = await A.api("POST", "/api/users/me/passkeys", {
      token: token,
      body: {
        credential: {
          id: credential.id,
          type: "public-key",
          response: { clientDataJSON: toB64url(response.clientDataJSON), attestationObject: toB64url(response.attestationObject) },
        },
        password: first ? password : undefined,
        confirmation: confirmed,
      },
    });
    if (res.ok) await refresh(token, requirePasskey);
    return res;
  }

  // --- Approval -------------------------------------------------------------------------------
  /**
   * Whether an approval carries an assertion: when the account has a passkey. A merchant's requirement
   * without one is the server's to refuse (403 PASSKEY_REQUIRED), and the page then explains it.
   */
  function needed() {
    return passkeys.length > 0;
  }
  /** Whether an approval would be refused: the merchant requires a passkey and the account has none. */
  function blocked() {
    return requirePasskey && passkeys.length === 0;
  }
  /** @param {() => void} listener called after every redraw */
  function onChange(listener) {
    listeners.push(listener);
  }

  /** @param {string} sessionId @param {string} nonce @returns {Promise<AssertionResult>} */
  async function assertion(sessionId, nonce) {
    return signed(
      await A.api("POST", "/api/age-verification/session/" + encodeURIComponent(sessionId) + "/passkey-options", {
        token: token,
        body: { nonce: nonce },
      }),
    );
  }

  /**
   * Adding another passkey or removing one is confirmed by one the account holds (the server refuses
   * either without it: 403 PASSKEY_REQUIRED); without this the page could never add a second passkey,
   * and every account's only one was "Passkey 1" (docs/end-user-apps.md). A proof of age for a wallet, from
   * the account page or the consent page a wallet opens, is confirmed the same way (docs/attestations.md).
   * @returns {Promise<AssertionResult>}
   */
  async function confirmation() {
    return signed(await A.api("POST", "/api/users/me/passkeys/confirmation-options", { token: token }));
  }

  /**
   * The same confirmation for a page that signed in by itself and shows no passkey section: the consent
   * page a wallet opens (src/apps/account/consent.browser.js).
   * @param {string} signedIn @returns {Promise<AssertionResult>}
   */
  async function confirmationOf(signedIn) {
    token = signedIn;
    return confirmation();
  }

  /** The browser's assertion over request options from the server. @param {ApiResult} options @returns {Promise<AssertionResult>} */
  async function signed(options) {
    if (!options.ok) return options;
    var o = options.data;
    var credential;
    try {
      credential = /** @type {PublicKeyCredential | null} */ (
        await navigator.credentials.get({
          publicKey: {
            challenge: fromB64url(o.challenge),
            rpId: o.rpId,
            allowCredentials: descriptors(o.allowCredentials),
            userVerification: o.userVerification,
            timeout: o.timeout,
          },
        })
      );
    } catch (error) {
      return cancelled(error, o.rpId);
    }
    if (!credential) return cancelled(null);
    var response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
    return {
      ok: true,
      assertion: {
        id: credential.id,
        type: "public-key",
        response: {
          clientDataJSON: toB64url(response.clientDataJSON),
          authenticatorData: toB64url(response.authenticatorData),
          signature: toB64url(response.signature),
        },
      },
    };
  }

  // --- The page's passkey sections (src/web/passkey-sections.tsx) ---------------------------------
  /**
   * Reads the account's passkeys and redraws the offer, the requirement notice and the settings.
   * @param {string | null} signedIn @param {boolean} required @param {boolean} [offer] whether the offer may show (kept when left out)
   */
  async function refresh(signedIn, required, offer) {
    token = signedIn;
    requirePasskey = required;
    if (offer !== undefined) offerAllowed = offer;
    var res = await A.api("GET", "/api/users/me/passkeys", { token: token });
    passkeys = res.ok ? res.data.passkeys : [];
    var can = supported();
    // A merchant that requires a passkey: the offer stays (no "Not now"), it is the way to approve.
    A.show("passkey-offer", can && passkeys.length === 0 && offerAllowed && (!offerDismissed || requirePasskey));
    A.show("passkey-skip", !requirePasskey);
    // The account page (data-always) shows them always: it is where a person adds their first one.
    A.show("passkey-settings", A.$("passkey-settings").hasAttribute("data-always") || passkeys.length > 0 || (can && offerDismissed));
    A.show("passkey-add", can);
    A.show("passkey-add-password-field", can && passkeys.length === 0);
    A.show("passkey-required", requirePasskey && passkeys.length === 0);
    A.text("passkey-required-text", A.t(can ? "passkey.required" : "passkey.required.unsupported"));
    drawList();
    listeners.forEach(function (listener) {
      listener();
    });
  }

  function drawList() {
    var list = A.$("passkey-list");
    list.textContent = "";
    passkeys.forEach(function (passkey) {
      var rename = A.el("button", { type: "button", className: "btn small secondary", text: A.t("passkey.rename") });
      var remove = A.el("button", { type: "button", className: "btn small secondary", text: A.t("passkey.remove") });
      rename.addEventListener("click", function () {
        renameOne(passkey);
      });
      remove.addEventListener("click", function () {
        removeOne(passkey, remove);
      });
      list.appendChild(
        A.el("li", { "data-passkey": passkey.id }, [
          A.el("span", { className: "passkey-name", text: passkey.name }),
          " ",
          A.el("span", {
            className: "muted",
            text: A.t("passkey.added", { date: A.formatDateTime(passkey.created_at, document.documentElement.lang) }),
          }),
          " ",
          rename,
          " ",
          remove,
        ]),
      );
    });
    A.show("passkey-empty", passkeys.length === 0);
  }

  /** @param {PasskeyView} passkey */
  async function renameOne(passkey) {
    var name = window.prompt(A.t("passkey.name_prompt"), passkey.name);
    if (!name) return;
    var res = await A.api("PATCH", "/api/users/me/passkeys/" + encodeURIComponent(passkey.id), { token: token, body: { name: name } });
    A.notice("passkey-settings-notice", res.ok ? "" : A.messageFor(res), "error");
    await refresh(token, requirePasskey);
  }

  /** @param {PasskeyView} passkey @param {HTMLButtonElement} button */
  async function removeOne(passkey, button) {
    if (!window.confirm(A.t("passkey.remove_confirm", { name: passkey.name }))) return;
    await A.busy(button, async function () {
      var held = await confirmation();
      if (!held.ok) return A.notice("passkey-settings-notice", A.messageFor(held), "error");
      var res = await A.api("DELETE", "/api/users/me/passkeys/" + encodeURIComponent(passkey.id), {
        token: token,
        body: { confirmation: held.assertion },
      });
      A.notice("passkey-settings-notice", res.ok ? "" : A.messageFor(res), "error");
      await refresh(token, requirePasskey);
    });
  }

  /** @param {string} noticeId @param {string} passwordId @param {HTMLButtonElement} button */
  async function enrolFrom(noticeId, passwordId, button) {
    A.notice(noticeId, "", "error");
    var input = /** @type {HTMLInputElement} */ (A.$(passwordId));
    if (passkeys.length === 0 && !input.value) {
      A.notice(noticeId, A.t("passkey.password.required"), "error");
      input.focus();
      return;
    }
    await A.busy(button, async function () {
      var res = await enrol(input.value);
      if (res.ok) {
        input.value = "";
        // Said where it can be seen: the settings open with the new passkey and this line in them.
        /** @type {HTMLDetailsElement} */ (A.$("passkey-settings")).open = true;
        A.notice("passkey-settings-notice", A.t("passkey.created"), "ok");
      } else if (res.error === "INVALID_CREDENTIALS") {
        A.notice(noticeId, A.t("passkey.password.wrong"), "error");
        input.focus();
      } else {
        A.notice(noticeId, A.messageFor(/** @type {{ error?: string, message?: string }} */ (res)), "error");
      }
    });
  }

  // The account page has the settings alone, without the offer that /verify shows after an identity check.
  if (A.$("passkey-create"))
    A.$("passkey-create").addEventListener("click", function (/** @type {MouseEvent} */ event) {
      enrolFrom("passkey-offer-notice", "passkey-offer-password", /** @type {HTMLButtonElement} */ (event.currentTarget));
    });
  // The consent page a wallet opens has no passkey section: it only asks for a confirmation (confirmationOf).
  if (A.$("passkey-add"))
    A.$("passkey-add").addEventListener("click", function (/** @type {MouseEvent} */ event) {
      enrolFrom("passkey-settings-notice", "passkey-add-password", /** @type {HTMLButtonElement} */ (event.currentTarget));
    });
  if (A.$("passkey-skip"))
    A.$("passkey-skip").addEventListener("click", function () {
      offerDismissed = true;
      refresh(token, requirePasskey);
    });

  return {
    supported: supported,
    refresh: refresh,
    needed: needed,
    blocked: blocked,
    onChange: onChange,
    assertion: assertion,
    confirmation: confirmation,
    confirmationOf: confirmationOf,
  };
})();
