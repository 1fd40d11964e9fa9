// @ts-check
// Client code of the merchant console (/assets/console.js): sign-in, email verification prompt, API
// keys, usage (summary, per-day chart, per-key table, session log, CSV) and account settings, all
// through the public JSON API with the account's Bearer token.

/**
 * What the console reads from the JSON API (the fields it uses). A session status is the server's own type.
 * @typedef {import("../../session/session-status").SessionStatus} Status
 * @typedef {{ email: string, emailVerified: boolean, userType: string, companyName?: string | null, firstName?: string | null, lastName?: string | null }} Account
 * @typedef {{ id: string, name: string, prefix: string, createdAt: string, lastUsedAt: string | null, revokedAt: string | null, signingSecret?: { rotatedAt: string | null, previousExpiresAt: string | null }, allowedCallbackOrigins?: string[] | null, mode?: "live" | "test" }} ApiKey
 * @typedef {{ at: string, duration_ms: number, status_code: number | null, error: string | null }} CallbackAttempt
 * @typedef {{ webhook_id: string, type: string, state: string, attempts: CallbackAttempt[] }} CallbackEvent
 * @typedef {{ key_id: string, name: string, prefix: string, total: number, approved: number, denied: number, expired: number, pending: number }} KeyTotals
 * @typedef {{ session_id: string, key_id: string, status: Status, age_required: number, created_at: string, resolved_at: string | null, livemode: boolean, reference: string | null, assurance: string | null, denial_reason: string | null }} LogEntry
 * @typedef {{ date: string, total: number, approved: number, denied: number, expired: number, pending: number }} DayUsage
 */

(function () {
  "use strict";
  var A = window.AVS;
  var tokens = A.tokenStore("avs.console.token");
  var token = tokens.get();
  /** @type {Account | null} */
  var user = null;
  /** @type {{ keys?: boolean, usage?: boolean }} */
  var loaded = {};
  /** @type {string | null} */
  var logCursor = null;
  // The query of the log's first page: "Load more" repeats it with the cursor, whatever the form says now.
  var logQuery = "";
  // The range of the totals on screen: a status change pages the log over that range, not over dates
  // typed since but not yet shown.
  var shownRange = "";
  // Each load takes a number; a response for an older number is stale (the range or status changed).
  var usageRun = 0;
  var logRun = 0;
  /** @type {Status[]} */
  var STATUSES = ["APPROVED", "DENIED", "EXPIRED", "PENDING"];
  /** @type {Record<Status, string>} */
  var COLORS = { APPROVED: "#1f8a53", DENIED: "#c4372f", EXPIRED: "#8a90a6", PENDING: "#e0a100" };
  var AREAS = [
    "console-loading",
    "console-auth",
    "console-personal",
    "console-unverified",
    "section-keys",
    "section-usage",
    "section-account",
  ];

  // The console's words for the API's error codes (the API's messages are written for developers).
  /** @type {Record<string, string>} */
  var CODES = {
    BUSINESS_ACCOUNT_REQUIRED: "The console is for business accounts. Sign in with your company's account.",
    EMAIL_NOT_VERIFIED: "Confirm your email address first: open the link we sent you.",
    NOT_FOUND: "We could not find that any more. Reload the page and try again.",
    KEY_LIMIT_REACHED: "You have the most active keys an account can have. Revoke one you no longer use, then create the new one.",
    ROTATION_CONFLICT: "The secret was just rotated somewhere else. Reload the page to see the current state.",
    NOTHING_TO_REDELIVER: "This session has no callback that can be sent again yet.",
    CALLBACK_ORIGIN_NOT_ALLOWED: "That address is not on this key's allowed callback origins.",
    PAYLOAD_TOO_LARGE: "That is more than the form can send at once. Shorten it and try again.",
    UNAVAILABLE: "The service is not answering right now. Please try again in a moment.",
    MISCONFIGURED: "The service is not set up to answer right now. Please try again later.",
    VALIDATION_FAILED: "Some of what you entered could not be accepted. Check it and try again.",
  };
  // Each form's words for its fields, shown in place of the validator's ("Too small: expected …").
  // "" is a problem of the whole form.
  var EMAIL = "Enter an email address, like name@company.com.";
  var NEW_PASSWORD = "Use a password of 8 to 128 characters.";
  var NAME = "Use at most 100 characters.";
  /** @type {Record<string, Record<string, string>>} */
  var FIELDS = {
    signin: { email: EMAIL, password: "Enter your password." },
    signup: {
      companyName: "Enter your company's name (at most 100 characters).",
      firstName: NAME,
      lastName: NAME,
      email: EMAIL,
      password: NEW_PASSWORD,
    },
    forgot: { email: EMAIL },
    createKey: { name: "Enter a name for the key, up to 64 characters (for example: production server).", mode: "Choose live or test." },
    rotate: { graceHours: "Enter a whole number of hours from 0 to " + A.$("rotate-form").getAttribute("data-max-grace") + "." },
    testEvent: { url: "Enter a public https:// address, like https://shop.example/age-callback." },
    origins: { allowedCallbackOrigins: "Write one origin a line, like https://shop.example: https, a host and no path." },
    range: {
      from: "Enter a start date on or before the end date, at most a year before it.",
      to: "Enter an end date, at most a year after the start date.",
      mode: "Choose live or test sessions.",
    },
    profile: {
      companyName: "Enter your company's name (at most 100 characters).",
      firstName: NAME,
      lastName: NAME,
      "": "Fill in at least one name to save.",
    },
    password: { currentPassword: "Enter your current password.", newPassword: NEW_PASSWORD },
    email: { newEmail: EMAIL, password: "Enter your password." },
  };
  /** @param {string} form @returns {Wording} */
  function wording(form) {
    return { fields: FIELDS[form], codes: CODES };
  }
  /** @param {{ error?: string, message?: string }} res */
  function plain(res) {
    return A.messageFor(res, { codes: CODES });
  }

  /** @param {string[]} ids */
  function only(ids) {
    AREAS.forEach(function (id) {
      A.show(id, ids.indexOf(id) >= 0);
    });
  }
  /** @param {string} [message] */
  function banner(message) {
    A.notice("console-banner", message || "", "error");
  }

  // Every authenticated call: a 401 UNAUTHORIZED means the sign-in ended (expired, or signed out
  // elsewhere). A 401 INVALID_CREDENTIALS is a wrong password typed into a form (docs/api-contract.md §Users): the
  // sign-in is still good, and the form says so under its field.
  /** @param {string} method @param {string} path @param {ApiOptions} [options] */
  async function call(method, path, options) {
    options = options || {};
    options.token = token;
    var res = await A.api(method, path, options);
    if (res.status === 401 && !res.ok && res.error !== "INVALID_CREDENTIALS")
      signOutLocally("Your sign-in has ended. Please sign in again.");
    return res;
  }

  /**
   * A wrong password in a signed-in form, shown under its password field (which takes the focus);
   * any other answer is the form's to show.
   * @param {HTMLFormElement} form @param {ApiResult} res @param {string} field @param {string} message
   * @returns {ApiResult | { ok: true }}
   */
  function wrongPassword(form, res, field, message) {
    if (res.ok || res.error !== "INVALID_CREDENTIALS") return res;
    A.showFailure(form, { error: "VALIDATION_FAILED", errors: [{ path: field, message: message }] });
    return { ok: true };
  }

  /** @param {string} [message] */
  function signOutLocally(message) {
    tokens.clear();
    token = null;
    user = null;
    loaded = {};
    A.show("console-nav", false);
    showSignedIn(false);
    only(["console-auth"]);
    if (message) A.notice(A.$("signin-form").querySelector(".notice"), message, "info");
  }

  // --- Sign in / sign up ------------------------------------------------------------------------
  var authTabs = A.tabs(/** @type {HTMLElement} */ (A.$("console-auth").querySelector(".tabs")));
  var sectionTabs = A.tabs(A.$("console-nav"));
  Array.prototype.forEach.call(A.$("console-nav").querySelectorAll('[role="tab"]'), function (tab) {
    tab.addEventListener("click", function () {
      openSection(tab.id.replace("tab-", ""));
    });
  });

  A.onSubmit(
    A.form("signin-form"),
    async function (values) {
      var res = await A.api("POST", "/api/auth/login", { body: { email: values.email, password: values.password } });
      if (res.ok) begin(res.data.token, res.data.user);
      return res;
    },
    wording("signin"),
  );

  A.onSubmit(
    A.form("signup-form"),
    async function (values) {
      /** @type {Record<string, string>} */
      var body = { email: values.email, password: values.password, userType: "BUSINESS", companyName: values.companyName };
      if (values.firstName) body.firstName = values.firstName;
      if (values.lastName) body.lastName = values.lastName;
      var res = await A.api("POST", "/api/auth/register", { body: body });
      if (res.ok) begin(res.data.token, res.data.user);
      return res;
    },
    wording("signup"),
  );

  A.onSubmit(
    A.form("forgot-form"),
    async function (values, form) {
      var res = await A.api("POST", "/api/auth/forgot-password", { body: { email: values.email } });
      if (res.ok) A.notice(form.querySelector(".notice"), "If an account uses this address, a reset link is on its way.", "ok");
      return res;
    },
    wording("forgot"),
  );

  // "Sign out" forgets this browser's sign-in; "Sign out everywhere" ends every sign-in of the account
  // (the API's logout bumps its token version), a separate and explicit action.
  A.$("sign-out").addEventListener("click", function () {
    signOutLocally("You are signed out in this browser.");
  });
  A.$("sign-out-everywhere").addEventListener("click", async function () {
    await A.api("POST", "/api/auth/logout", { token: token });
    signOutLocally("You are signed out on every device.");
  });
  /** @param {boolean} signedIn */
  function showSignedIn(signedIn) {
    A.show("sign-out", signedIn);
    A.show("sign-out-everywhere", signedIn);
    A.show("console-heading", signedIn);
  }

  /** @param {string} newToken @param {Account} account */
  function begin(newToken, account) {
    token = newToken;
    tokens.set(newToken);
    route(account);
  }

  /** @param {Account} account */
  function route(account) {
    user = account;
    banner("");
    showSignedIn(true);
    if (user.userType !== "BUSINESS") {
      A.show("console-nav", false);
      // The account page reads the sign-in /verify keeps: handing this one over spares a second sign-in.
      A.tokenStore("avs.verify.token").set(/** @type {string} */ (token));
      return only(["console-personal"]);
    }
    if (!user.emailVerified) {
      A.show("console-nav", false);
      A.text("unverified-email", user.email);
      // A link, not text to copy: in development the confirmation mail is one click away.
      var outbox = "/dev/outbox?to=" + encodeURIComponent(user.email);
      var hint = A.$("outbox-hint");
      if (hint) hint.setAttribute("href", outbox);
      A.text("outbox-hint-text", outbox);
      return only(["console-unverified"]);
    }
    A.show("console-nav", true);
    openSection(location.hash === "#usage" ? "usage" : location.hash === "#account" ? "account" : "keys");
  }

  /** @param {string} name */
  function openSection(name) {
    sectionTabs.select("tab-" + name);
    only(["section-" + name]);
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
    if (name === "keys" && !loaded.keys) loadKeys();
    if (name === "usage" && !loaded.usage) loadUsage();
    if (name === "account") fillAccount();
  }

  // --- Email verification -----------------------------------------------------------------------
  A.$("recheck-email").addEventListener("click", async function (/** @type {MouseEvent} */ event) {
    await A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), async function () {
      var res = await call("GET", "/api/users/me");
      if (!res.ok) return;
      if (res.data.user.emailVerified) route(res.data.user);
      else A.notice("unverified-notice", "Not confirmed yet. Open the link in the email we sent, then try again.", "info");
    });
  });
  A.$("resend-email").addEventListener("click", async function (/** @type {MouseEvent} */ event) {
    await A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), async function () {
      var res = await call("POST", "/api/auth/resend-verification");
      if (res.ok) A.notice("unverified-notice", "A new link is on its way.", "ok");
      else if (res.error === "ALREADY_VERIFIED") {
        var me = await call("GET", "/api/users/me");
        if (me.ok) route(me.data.user);
      } else if (res.status !== 401) A.notice("unverified-notice", plain(res), "error");
    });
  });

  // --- Confirmation dialog ----------------------------------------------------------------------
  /**
   * Asks in the page's dialog; resolves true only for the confirming button.
   * @param {string} title @param {string} text @param {string} action
   * @returns {Promise<boolean>}
   */
  function confirmAction(title, text, action) {
    var dialog = /** @type {HTMLDialogElement} */ (A.$("confirm-dialog"));
    A.text("confirm-title", title);
    A.text("confirm-text", text);
    A.text("confirm-yes", action);
    return new Promise(function (resolve) {
      /** @param {boolean} answer */
      function close(answer) {
        A.$("confirm-yes").onclick = null;
        A.$("confirm-no").onclick = null;
        dialog.onclose = null;
        if (dialog.open) dialog.close();
        resolve(answer);
      }
      A.$("confirm-yes").onclick = function () {
        close(true);
      };
      A.$("confirm-no").onclick = function () {
        close(false);
      };
      dialog.onclose = function () {
        close(false);
      };
      dialog.showModal();
      A.$("confirm-no").focus();
    });
  }

  // --- API keys ---------------------------------------------------------------------------------
  /** @type {string | null} the key whose secrets the "Your new key" panel shows */
  var newKeyId = null;

  /** The keys table's row of a key, once rendered. @param {string | null} id */
  function keyRow(id) {
    return id ? A.$("keys-table").querySelector('tr[data-key-id="' + CSS.escape(id) + '"]') : null;
  }

  /** A live or test pill: both modes look alike, only their words and colour differ. @param {boolean} live */
  function modeCell(live) {
    return A.el("td", {}, [A.el("span", { className: "pill mode " + (live ? "live" : "test"), text: live ? "Live" : "Test" })]);
  }

  /**
   * Gives each body cell of a stacked table its column's header as data-label, which the narrow layout
   * shows beside the value (console.css): a row read as a block still says what each value is.
   * @param {string} id
   */
  function labelCells(id) {
    var table = A.$(id);
    /** @type {string[]} */
    var headers = [];
    table.querySelectorAll("thead th").forEach(function (th) {
      headers.push(th.querySelector(".sr-only") ? "" : (th.textContent || "").trim());
    });
    Array.prototype.forEach.call(table.querySelectorAll("tbody tr"), function (/** @type {HTMLTableRowElement} */ row) {
      Array.prototype.forEach.call(row.cells, function (/** @type {HTMLTableCellElement} */ cell, /** @type {number} */ index) {
        if (cell.colSpan === 1) cell.setAttribute("data-label", headers[index] || "");
      });
    });
  }

  async function loadKeys() {
    var res = await call("GET", "/api/keys");
    if (!res.ok) {
      if (res.status !== 401) banner(plain(res));
      return;
    }
    loaded.keys = true;
    var body = /** @type {HTMLTableSectionElement} */ (A.$("keys-table").querySelector("tbody"));
    body.textContent = "";
    res.data.keys.forEach(function (/** @type {ApiKey} */ key) {
      /** @type {HTMLButtonElement | null} */
      var revoke = null;
      /** @type {HTMLButtonElement | null} */
      var callbacks = null;
      if (!key.revokedAt) {
        // "Callbacks", as the docs and the rest of the console name what the service sends a merchant's server.
        callbacks = A.el("button", {
          type: "button",
          className: "btn small secondary",
          text: "Callbacks",
          "aria-label": "Callbacks of " + key.name,
        });
        callbacks.addEventListener("click", function () {
          openKeyCallbacks(key);
        });
        revoke = A.el("button", { type: "button", className: "btn small secondary", text: "Revoke", "aria-label": "Revoke " + key.name });
        revoke.addEventListener("click", function () {
          revokeKey(key, /** @type {HTMLButtonElement} */ (revoke));
        });
      }
      body.appendChild(
        A.el("tr", { "data-key-id": key.id }, [
          A.el("td", { text: key.name }),
          modeCell(key.mode !== "test"),
          A.el("td", { className: "mono", text: key.prefix + "\u2026" }),
          A.el("td", { text: A.formatDateTime(key.createdAt) }),
          A.el("td", { text: key.lastUsedAt ? A.formatDateTime(key.lastUsedAt) : "Never" }),
          // The pill stays one word; the revocation's date follows it as plain text.
          A.el(
            "td",
            {},
            key.revokedAt
              ? [
                  A.el("span", { className: "pill revoked", text: "Revoked" }),
                  A.el("span", { className: "detail", text: A.formatDateTime(key.revokedAt) }),
                ]
              : [A.el("span", { className: "pill active", text: "Active" })],
          ),
          A.el("td", { className: "actions-cell" }, [callbacks, revoke]),
        ]),
      );
    });
    labelCells("keys-table");
    A.show("keys-table", res.data.keys.length > 0);
    A.show("keys-empty", res.data.keys.length === 0);
  }

  /** @param {ApiKey} key @param {HTMLButtonElement} button */
  async function revokeKey(key, button) {
    var yes = await confirmAction(
      "Revoke " + key.name + "?",
      "Requests with this key fail from the very next one. Callbacks of sessions it already opened are still delivered. This cannot be undone.",
      "Revoke key",
    );
    if (!yes) return button.focus();
    // The keys listed below this one, read before the table is drawn again.
    /** @type {(string | null)[]} */
    var nextIds = [];
    var row = keyRow(key.id);
    for (var tr = row?.nextElementSibling; tr; tr = tr.nextElementSibling) nextIds.push(tr.getAttribute("data-key-id"));
    await A.busy(button, async function () {
      var res = await call("DELETE", "/api/keys/" + encodeURIComponent(key.id));
      if (!res.ok && res.status !== 401) banner(plain(res));
      await loadKeys();
    });
    if (!token) return;
    // The revoked row loses its buttons: the focus goes to the next key's Revoke, else to the heading.
    /** @type {HTMLElement | null | undefined} */
    var next = null;
    nextIds.some(function (/** @type {string | null} */ id) {
      var r = keyRow(id);
      next = r?.querySelector('button[aria-label^="Revoke "]');
      return !!next;
    });
    (next || A.$("keys-title")).focus();
  }

  // ---- Callback tools of a key: rotate the signing secret, send a test event, allowed origins ----
  /** @type {ApiKey | null} */
  var callbacksKey = null;

  /** @param {ApiKey} key */
  function showSecretState(key) {
    var state = key.signingSecret;
    A.text(
      "secret-state",
      state?.previousExpiresAt
        ? "Two secrets sign callbacks until " + A.formatDateTime(state.previousExpiresAt) + "; then only the newest."
        : state?.rotatedAt
          ? "One secret signs callbacks (rotated " + A.formatDateTime(state.rotatedAt) + ")."
          : "One secret signs callbacks.",
    );
  }

  /** @param {ApiKey} key */
  function openKeyCallbacks(key) {
    callbacksKey = key;
    A.text("key-callbacks-name", key.name);
    showSecretState(key);
    /** @type {HTMLTextAreaElement} */ (A.$("origins")).value = (key.allowedCallbackOrigins || []).join("\n");
    A.show("rotated", false);
    A.show("test-result", false);
    A.show("origins-status", false);
    A.show("key-callbacks", true);
    A.$("key-callbacks-title").focus();
  }

  A.$("key-callbacks-close").addEventListener("click", function () {
    A.input("rotated-secret").value = "";
    A.show("key-callbacks", false);
    callbacksKey = null;
  });

  A.onSubmit(
    A.form("rotate-form"),
    async function (values) {
      if (!callbacksKey) return { ok: true };
      var key = callbacksKey;
      var yes = await confirmAction(
        "Rotate the signing secret of " + key.name + "?",
        "A new secret is shown once. The current one keeps signing beside it for the grace period, then stops.",
        "Rotate secret",
      );
      if (!yes) return { ok: true };
      var res = await call("POST", "/api/keys/" + encodeURIComponent(key.id) + "/rotate-signing-secret", {
        body: { graceHours: Number(values.graceHours) },
      });
      if (!res.ok) return res.status === 401 ? { ok: true } : res;
      A.input("rotated-secret").value = res.data.signingSecret;
      A.show("rotated-copy-status", false);
      A.show("rotated", true);
      callbacksKey = res.data.key;
      showSecretState(res.data.key);
      loadKeys();
      return res;
    },
    wording("rotate"),
  );

  A.onSubmit(
    A.form("test-event-form"),
    async function (values) {
      if (!callbacksKey) return { ok: true };
      var res = await call("POST", "/api/keys/" + encodeURIComponent(callbacksKey.id) + "/test-callback", { body: { url: values.url } });
      if (!res.ok) return res.status === 401 ? { ok: true } : res;
      var r = res.data;
      // The status only: the answer is padded to whole seconds by design (docs/callbacks.md), so its duration
      // would mislead anyone tuning an endpoint against the 15 s deadline.
      A.notice(
        "test-result",
        (r.delivered ? "Delivered: " : "Not delivered: ") +
          (r.status_code !== null ? "HTTP " + r.status_code : r.error) +
          " (" +
          r.signatures +
          (r.signatures === 1 ? " signature)." : " signatures)."),
        r.delivered ? "ok" : "warn",
      );
      return res;
    },
    wording("testEvent"),
  );

  A.onSubmit(
    A.form("origins-form"),
    async function () {
      if (!callbacksKey) return { ok: true };
      var lines = /** @type {HTMLTextAreaElement} */ (A.$("origins")).value.split(/\s+/).filter(Boolean);
      var res = await call("PATCH", "/api/keys/" + encodeURIComponent(callbacksKey.id), {
        body: { allowedCallbackOrigins: lines.length ? lines : null },
      });
      if (!res.ok) return res.status === 401 ? { ok: true } : res;
      callbacksKey = res.data.key;
      /** @type {HTMLTextAreaElement} */ (A.$("origins")).value = (res.data.key.allowedCallbackOrigins || []).join("\n");
      A.notice("origins-status", "Saved.", "ok");
      loadKeys();
      return res;
    },
    wording("origins"),
  );

  // ---- A session's callback attempts, with Redeliver ----
  /** @type {string | null} */
  var callbacksSession = null;

  /** @param {string} sessionId */
  function callbacksButton(sessionId) {
    var button = A.el("button", {
      type: "button",
      className: "btn small secondary",
      text: "Callbacks",
      "aria-label": "Callbacks of " + sessionId,
    });
    button.addEventListener("click", function () {
      openSessionCallbacks(sessionId);
    });
    return button;
  }

  /** @param {string} sessionId */
  async function openSessionCallbacks(sessionId) {
    callbacksSession = sessionId;
    A.text("session-callbacks-id", sessionId);
    A.show("redeliver-status", false);
    await renderCallbacks();
    A.show("session-callbacks", true);
    A.$("session-callbacks-title").focus();
  }

  async function renderCallbacks() {
    if (!callbacksSession) return;
    var res = await call("GET", "/api/usage/sessions/" + encodeURIComponent(callbacksSession) + "/callbacks");
    if (!res.ok) {
      if (res.status !== 401) banner(plain(res));
      return;
    }
    /** @type {CallbackEvent | undefined} */
    var event = res.data.events[res.data.events.length - 1];
    A.text(
      "session-callbacks-event",
      event ? event.type + " \u00b7 " + event.webhook_id + " \u00b7 " + event.state : "No callback event yet.",
    );
    var body = /** @type {HTMLTableSectionElement} */ (A.$("attempts-table").querySelector("tbody"));
    body.textContent = "";
    (event ? event.attempts : []).forEach(function (/** @type {CallbackAttempt} */ attempt) {
      body.appendChild(
        A.el("tr", {}, [
          A.el("td", { text: A.formatDateTime(attempt.at) }),
          A.el("td", { text: attempt.status_code === null ? "\u2013" : String(attempt.status_code) }),
          A.el("td", { text: attempt.duration_ms + " ms" }),
          A.el("td", { text: attempt.error || "\u2013" }),
        ]),
      );
    });
    labelCells("attempts-table");
    A.show("redeliver", !!event);
  }

  A.$("redeliver").addEventListener("click", async function (/** @type {MouseEvent} */ event) {
    var button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    if (!callbacksSession) return;
    var sessionId = callbacksSession;
    await A.busy(button, async function () {
      var res = await call("POST", "/api/usage/sessions/" + encodeURIComponent(sessionId) + "/callbacks/redeliver");
      if (!res.ok) {
        if (res.status !== 401) A.notice("redeliver-status", plain(res), "error");
        return;
      }
      A.notice("redeliver-status", "Redelivery queued: the new attempt appears below within seconds.", "ok");
      // The attempt is sent by the queue consumer: look again shortly.
      for (var i = 0; i < 10; i++) {
        await new Promise(function (resolve) {
          setTimeout(resolve, 500);
        });
        await renderCallbacks();
      }
    });
  });

  A.$("session-callbacks-close").addEventListener("click", function () {
    A.show("session-callbacks", false);
    callbacksSession = null;
  });

  // The next step after a key: one session opened from a server, with this deployment's address and the
  // key named by its prefix (the key itself goes in an environment variable, never in a shell's history).
  /** @param {ApiKey} key */
  function firstSession(key) {
    return (
      "export AGE_API_KEY='" +
      key.prefix +
      "\u2026'   # paste the whole API key shown above\n" +
      "curl -X POST " +
      location.origin +
      "/api/age-verification/session \\\n" +
      '  -H "X-API-Key: $AGE_API_KEY" -H "Content-Type: application/json" \\\n' +
      '  -d \'{"age_required": 18, "callback_url": "https://your-server.example/age-callback"}\''
    );
  }

  A.onSubmit(
    A.form("create-key-form"),
    async function (values, form) {
      var res = await call("POST", "/api/keys", { body: { name: values.name, mode: values.mode === "test" ? "test" : "live" } });
      if (!res.ok) return res.status === 401 ? { ok: true } : res;
      form.reset();
      A.input("new-api-key").value = res.data.apiKey;
      A.input("new-signing-secret").value = res.data.signingSecret;
      newKeyId = res.data.key.id;
      A.text("new-key-curl", firstSession(res.data.key));
      A.show("copy-status", false);
      A.show("new-key", true);
      A.$("new-key-title").focus();
      keysReload = loadKeys();
      return res;
    },
    wording("createKey"),
  );

  // The panel closes under the focus: it moves to the new key's row (its first control), or to the
  // keys heading when the table could not be reloaded.
  /** @type {Promise<void>} the keys table's reload after a key was created: its row takes the focus */
  var keysReload = Promise.resolve();
  A.$("new-key-done").addEventListener("click", async function () {
    // On a slow network the table may not list the new key yet: wait for it rather than lose the row.
    await keysReload;
    A.input("new-api-key").value = "";
    A.input("new-signing-secret").value = "";
    A.show("new-key", false);
    var row = keyRow(newKeyId);
    var control = row?.querySelector("button");
    /** @type {HTMLElement} */ (control || A.$("keys-title")).focus();
    newKeyId = null;
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (button) {
    button.addEventListener("click", function () {
      var input = A.input(button.getAttribute("data-copy"));
      var status = button.getAttribute("data-copy-status") || "copy-status";
      input.select();
      var copied = function () {
        A.notice(status, "Copied to the clipboard.", "ok");
      };
      var manual = function () {
        A.notice(status, "Selected: press Ctrl+C (or \u2318C) to copy.", "info");
      };
      if (navigator.clipboard?.writeText) navigator.clipboard.writeText(input.value).then(copied, manual);
      else manual();
    });
  });

  // --- Usage ------------------------------------------------------------------------------------
  /** @param {Date} date */
  function isoDay(date) {
    return date.toISOString().slice(0, 10);
  }
  var DEFAULT_TO = isoDay(new Date());
  var DEFAULT_FROM = isoDay(new Date(Date.now() - 30 * 86400000));
  /** @type {Record<string, { name: string, prefix: string }>} by key id, from the by-key totals (which list every key of the account) */
  var keyNames = {};

  function defaultRange() {
    A.input("range-from").value = DEFAULT_FROM;
    A.input("range-to").value = DEFAULT_TO;
    /** @type {HTMLSelectElement} */ (A.$("range-mode")).value = "live";
  }
  defaultRange();

  // Filters other than the defaults: an empty log then says "no match", not "no sessions yet".
  function filtered() {
    return /** @type {HTMLSelectElement} */ (A.$("log-status")).value !== "" || shownRange !== defaultQuery();
  }
  function defaultQuery() {
    return "from=" + DEFAULT_FROM + "&to=" + DEFAULT_TO + "&mode=live";
  }

  // An empty or inverted range is refused before asking (the API would answer 422 as well).
  function rangeProblems() {
    var from = A.input("range-from").value;
    var to = A.input("range-to").value;
    /** @type {Problem[]} */
    var problems = [];
    if (!from || (to && from > to)) problems.push({ path: "from", message: "" });
    if (!to) problems.push({ path: "to", message: "" });
    return problems;
  }

  // No figures rather than old ones: the totals, chart and tables of a range that is no longer asked.
  function clearFigures() {
    usageRun++;
    logRun++;
    shownRange = "";
    logCursor = null;
    ["total", "approved", "denied", "expired", "pending"].forEach(function (name) {
      A.text("stat-" + name, "\u2013");
    });
    A.$("chart").textContent = "";
    A.$("chart").removeAttribute("data-sessions");
    /** @type {HTMLElement} */ (A.$("by-key-table").querySelector("tbody")).textContent = "";
    /** @type {HTMLElement} */ (A.$("log-table").querySelector("tbody")).textContent = "";
    ["log-table", "log-empty", "load-more", "session-callbacks"].forEach(function (id) {
      A.show(id, false);
    });
  }

  function rangeQuery() {
    var mode = /** @type {HTMLSelectElement} */ (A.$("range-mode")).value === "test" ? "test" : "live";
    return (
      "from=" + encodeURIComponent(A.input("range-from").value) + "&to=" + encodeURIComponent(A.input("range-to").value) + "&mode=" + mode
    );
  }

  A.onSubmit(
    A.form("range-form"),
    function () {
      return loadUsage();
    },
    wording("range"),
  );
  A.$("log-status").addEventListener("change", function () {
    if (shownRange) loadLog(false);
  });
  // Live or test applies at once, as the status selector does: every figure on screen changes with it.
  A.$("range-mode").addEventListener("change", function () {
    if (shownRange)
      loadUsage().then(function (res) {
        if (res && res.ok === false) A.showFailure(A.form("range-form"), res, wording("range"));
      });
  });
  A.$("clear-filters").addEventListener("click", function () {
    defaultRange();
    /** @type {HTMLSelectElement} */ (A.$("log-status")).value = "";
    A.clearFieldErrors(A.form("range-form"));
    A.$("log-title").focus();
    loadUsage();
  });
  A.$("load-more").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), function () {
      return loadLog(true);
    });
  });

  // One range for every part of one load, read once: edits made while it runs wait for the next "Show".
  async function loadUsage() {
    var form = A.$("range-form");
    var problems = rangeProblems();
    if (problems.length) {
      clearFigures();
      return { ok: false, status: 422, error: "VALIDATION_FAILED", message: "", errors: problems };
    }
    var run = ++usageRun;
    var range = rangeQuery();
    shownRange = range;
    var summary = await call("GET", "/api/usage/summary?" + range);
    if (run !== usageRun) return { ok: true };
    if (!summary.ok) {
      clearFigures();
      return summary.status === 401 ? { ok: true } : summary;
    }
    loaded.usage = true;
    var totals = summary.data;
    ["total", "approved", "denied", "expired", "pending"].forEach(function (name) {
      A.text("stat-" + name, totals[name]);
    });
    var byKey = await call("GET", "/api/usage/by-key?" + range);
    if (run !== usageRun) return { ok: true };
    if (byKey.ok) renderByKey(byKey.data.keys);
    await Promise.all([loadChart(range, run), loadLog(false, range)]);
    A.notice(form.querySelector(".notice"), "", "error");
    return { ok: true };
  }

  /** @param {KeyTotals[]} keys */
  function renderByKey(keys) {
    var body = /** @type {HTMLTableSectionElement} */ (A.$("by-key-table").querySelector("tbody"));
    body.textContent = "";
    if (!keys.length) body.appendChild(A.el("tr", {}, [A.el("td", { colspan: "7", className: "empty", text: "No keys yet." })]));
    keys.forEach(function (k) {
      keyNames[k.key_id] = { name: k.name, prefix: k.prefix };
      body.appendChild(
        A.el("tr", {}, [
          A.el("td", { text: k.name }),
          A.el("td", { className: "mono", text: k.prefix + "\u2026" }),
          A.el("td", { text: String(k.total) }),
          A.el("td", { text: String(k.approved) }),
          A.el("td", { text: String(k.denied) }),
          A.el("td", { text: String(k.expired) }),
          A.el("td", { text: String(k.pending) }),
        ]),
      );
    });
    labelCells("by-key-table");
  }

  // A first page (more = false) starts a new query from the range and the status; "Load more" sends
  // that same query with the cursor (the API refuses a cursor with other filters). Only the newest
  // request's answer is shown: a page of an older query never mixes into the table.
  /** @param {boolean} more @param {string} [range] */
  async function loadLog(more, range) {
    if (more && !logCursor) return;
    var run = ++logRun;
    if (!more) {
      var status = /** @type {HTMLSelectElement} */ (A.$("log-status")).value;
      logQuery = (range || shownRange || rangeQuery()) + "&limit=50" + (status ? "&status=" + status : "");
      logCursor = null;
      A.show("load-more", false);
    }
    var res = await call(
      "GET",
      "/api/usage/sessions?" + logQuery + (more ? "&cursor=" + encodeURIComponent(/** @type {string} */ (logCursor)) : ""),
    );
    if (run !== logRun) return;
    if (!res.ok) {
      if (res.status !== 401) banner(plain(res));
      return;
    }
    var body = /** @type {HTMLTableSectionElement} */ (A.$("log-table").querySelector("tbody"));
    if (!more) body.textContent = "";
    res.data.items.forEach(function (/** @type {LogEntry} */ item) {
      body.appendChild(
        A.el("tr", { "data-session-id": item.session_id }, [
          A.el("td", { className: "mono", text: item.session_id }),
          modeCell(item.livemode),
          A.el("td", {}, [A.el("span", { className: "pill " + item.status, text: item.status.toLowerCase() }), outcomeDetail(item)]),
          A.el("td", { className: item.reference ? "mono" : "", text: item.reference || "\u2013" }),
          A.el("td", { text: String(item.age_required) }),
          keyCell(item.key_id),
          A.el("td", { text: A.formatDateTime(item.created_at) }),
          A.el("td", { text: item.resolved_at ? A.formatDateTime(item.resolved_at) : "\u2013" }),
          A.el("td", {}, [item.status === "PENDING" ? null : callbacksButton(item.session_id)]),
        ]),
      );
    });
    labelCells("log-table");
    logCursor = res.data.next_cursor;
    var any = body.children.length > 0;
    A.show("log-table", any);
    A.show("log-empty", !any);
    var noMatch = !any && filtered();
    A.show("log-none", !noMatch);
    A.show("log-no-match", noMatch);
    A.show("load-more", !!logCursor);
  }

  // What an answer rested on, or why a session was denied, in words under its status (1.2.0 fields).
  /** @type {Record<string, string>} */
  var OUTCOME_WORDS = {
    UNDER_AGE: "under the age",
    DECLINED: "declined by the person",
    KYC_VERIFIED: "identity check",
    DIGITAL_ID_VERIFIED: "digital ID",
  };
  /** @param {LogEntry} item */
  function outcomeDetail(item) {
    var code = item.status === "DENIED" ? item.denial_reason : item.status === "APPROVED" ? item.assurance : null;
    if (!code) return null;
    return A.el("span", { className: "detail", "data-code": code, text: OUTCOME_WORDS[code] || code.toLowerCase().replace(/_/g, " ") });
  }

  // The key's name as the by-key table shows it (with its prefix); the id for a key not listed there yet.
  /** @param {string} id */
  function keyCell(id) {
    var key = keyNames[id];
    if (!key) return A.el("td", { className: "mono", text: id });
    return A.el("td", {}, [key.name + " ", A.el("span", { className: "mono muted", text: key.prefix + "\u2026" })]);
  }

  // The chart reads the server's per-day counts of the range: at most 367 small entries, however many
  // sessions the range holds.
  /** @param {string} range @param {number} run */
  async function loadChart(range, run) {
    var res = await call("GET", "/api/usage/by-day?" + range);
    if (run !== usageRun) return;
    var mount = A.$("chart");
    mount.textContent = "";
    if (!res.ok) {
      if (res.status !== 401) mount.appendChild(A.el("p", { className: "empty", text: plain(res) }));
      return;
    }
    /** @type {string[]} */
    var days = [];
    /** @type {Record<string, Record<Status, number>>} */
    var counts = {};
    var total = 0;
    res.data.days.forEach(function (/** @type {DayUsage} */ entry) {
      days.push(entry.date);
      counts[entry.date] = { APPROVED: entry.approved, DENIED: entry.denied, EXPIRED: entry.expired, PENDING: entry.pending };
      total += entry.total;
    });
    mount.setAttribute("data-sessions", String(total));
    drawChart(mount, days, counts, total);
  }

  /**
   * @param {string} tag
   * @param {Record<string, string | number>} attrs
   * @param {(Node | string)[]} [children]
   */
  function svg(tag, attrs, children) {
    var node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attrs).forEach(function (name) {
      node.setAttribute(name, String(attrs[name]));
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  /**
   * @param {HTMLElement} mount
   * @param {string[]} days
   * @param {Record<string, Record<Status, number>>} counts
   * @param {number} total
   */
  function drawChart(mount, days, counts, total) {
    if (!total) {
      mount.appendChild(
        A.el("p", {
          className: "empty",
          text: "No sessions in this range yet: open one with your API key, see the quick start in the README.",
        }),
      );
      return;
    }
    var width = 720,
      height = 220,
      left = 36,
      bottom = 28,
      top = 10;
    var max = 1;
    days.forEach(function (day) {
      var sum = 0;
      STATUSES.forEach(function (s) {
        sum += counts[day][s];
      });
      if (sum > max) max = sum;
    });
    var slot = (width - left) / days.length;
    var bar = Math.max(2, slot * 0.7);
    var scale = (height - bottom - top) / max;
    var chart = svg("svg", {
      viewBox: "0 0 " + width + " " + height,
      class: "chart",
      role: "img",
      "aria-label": total + " sessions from " + days[0] + " to " + days[days.length - 1] + ", stacked by status per day",
    });
    chart.appendChild(svg("line", { x1: left, y1: height - bottom, x2: width, y2: height - bottom, stroke: "#8a90a6" }));
    chart.appendChild(svg("text", { x: left - 6, y: top + 10, "text-anchor": "end", "font-size": "11", fill: "#4a5068" }, [String(max)]));
    chart.appendChild(svg("text", { x: left - 6, y: height - bottom, "text-anchor": "end", "font-size": "11", fill: "#4a5068" }, ["0"]));
    days.forEach(function (day, index) {
      var x = left + index * slot + (slot - bar) / 2;
      var y = height - bottom;
      var parts = [];
      STATUSES.forEach(function (status) {
        var n = counts[day][status];
        if (!n) return;
        var h = n * scale;
        y -= h;
        chart.appendChild(
          svg(
            "rect",
            {
              x: x.toFixed(1),
              y: y.toFixed(1),
              width: bar.toFixed(1),
              height: h.toFixed(1),
              fill: COLORS[status],
              "data-day": day,
              "data-status": status,
            },
            [svg("title", {}, [day + ": " + n + " " + status.toLowerCase()])],
          ),
        );
        parts.push(n + " " + status.toLowerCase());
      });
      if (index === 0 || index === days.length - 1 || (days.length > 10 && index % Math.ceil(days.length / 6) === 0)) {
        var last = index === days.length - 1;
        chart.appendChild(
          svg(
            "text",
            {
              x: (last ? x + bar : x + bar / 2).toFixed(1),
              y: height - 8,
              "text-anchor": last ? "end" : "middle",
              "font-size": "11",
              fill: "#4a5068",
            },
            [day.slice(5)],
          ),
        );
      }
    });
    mount.appendChild(chart);
  }

  A.$("download-csv").addEventListener("click", async function (/** @type {MouseEvent} */ event) {
    await A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), async function () {
      // The CSV holds what the figures on screen count: their range and mode, not a selector changed since
      // without "Show". Before any figures, the form's range, checked first.
      var problems = shownRange ? [] : rangeProblems();
      if (problems.length) return A.showFailure(A.form("range-form"), { error: "VALIDATION_FAILED", errors: problems }, wording("range"));
      var res = await call("GET", "/api/usage/export.csv?" + (shownRange || rangeQuery()), { raw: true, accept: "text/csv" });
      if (!res.ok) {
        if (res.status !== 401) banner(plain(res));
        return;
      }
      var response = /** @type {Response} */ (res.response);
      var disposition = response.headers.get("content-disposition") || "";
      var match = /filename="?([^";]+)"?/.exec(disposition);
      var url = URL.createObjectURL(await response.blob());
      // The file says which sessions it holds: live or test (the mode of the figures on screen).
      var mode = /[?&]mode=test(&|$)/.test(shownRange || rangeQuery()) ? "test" : "live";
      var name = (match ? match[1] : "sessions.csv").replace(/\.csv$/, "") + "-" + mode + ".csv";
      var link = A.el("a", { href: url, download: name });
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () {
        URL.revokeObjectURL(url);
      }, 10000);
    });
  });

  // --- Account ----------------------------------------------------------------------------------
  function fillAccount() {
    if (!user) return;
    A.text("profile-summary", user.email + " \u00b7 business account \u00b7 email " + (user.emailVerified ? "confirmed" : "not confirmed"));
    A.input("profile-companyName").value = user.companyName || "";
    A.input("profile-firstName").value = user.firstName || "";
    A.input("profile-lastName").value = user.lastName || "";
  }

  A.onSubmit(
    A.form("profile-form"),
    async function (values, form) {
      /** @type {Record<string, string>} */
      var body = {};
      ["companyName", "firstName", "lastName"].forEach(function (name) {
        if (values[name]) body[name] = values[name];
      });
      var res = await call("PATCH", "/api/users/me", { body: body });
      if (res.ok) {
        user = res.data.user;
        fillAccount();
        A.notice(form.querySelector(".notice"), "Profile saved.", "ok");
      }
      return res;
    },
    wording("profile"),
  );

  A.onSubmit(
    A.form("password-form"),
    async function (values, form) {
      var res = await call("POST", "/api/users/change-password", {
        body: { currentPassword: values.currentPassword, newPassword: values.newPassword },
      });
      if (res.ok) {
        token = res.data.token;
        tokens.set(res.data.token);
        form.reset();
        A.notice(form.querySelector(".notice"), "Password changed. Every other device is signed out.", "ok");
      }
      return wrongPassword(form, res, "currentPassword", "That is not your current password.");
    },
    wording("password"),
  );

  A.onSubmit(
    A.form("email-form"),
    async function (values, form) {
      var res = await call("POST", "/api/users/change-email", { body: { newEmail: values.newEmail, password: values.password } });
      if (res.ok) {
        form.reset();
        A.notice(form.querySelector(".notice"), "Open the link we sent to the new address to finish the change.", "ok");
      }
      return wrongPassword(form, res, "password", "That is not your password.");
    },
    wording("email"),
  );

  A.$("delete-account").addEventListener("click", async function (/** @type {MouseEvent} */ event) {
    var button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    A.show("delete-notice", false);
    var yes = await confirmAction(
      "Delete your account?",
      "Your usage log is removed, every API key stops working at once and pending sessions expire. This cannot be undone.",
      "Delete account",
    );
    if (!yes) return button.focus();
    await A.busy(button, async function () {
      // The password, when given; without it the server accepts a sign-in of the last 10 minutes.
      var password = /** @type {HTMLInputElement} */ (A.$("delete-password")).value;
      var res = await call("DELETE", "/api/users/account", password ? { body: { password: password } } : undefined);
      if (res.ok) return signOutLocally("Your account is deleted.");
      if (res.error === "EMAIL_NOT_VERIFIED")
        A.notice("delete-notice", "Confirm your email address first: deleting an account needs a confirmed email.", "error");
      else if (res.error === "INVALID_CREDENTIALS")
        A.notice("delete-notice", password ? "That is not your password." : "Enter your password to delete the account.", "error");
      else if (res.status !== 401) A.notice("delete-notice", plain(res), "error");
    });
  });

  // --- Start ------------------------------------------------------------------------------------
  (async function start() {
    if (!token) {
      authTabs.select("tab-signin");
      return only(["console-auth"]);
    }
    var res = await call("GET", "/api/users/me");
    if (res.ok) route(res.data.user);
    else if (res.status !== 401) {
      only(["console-auth"]);
      banner(plain(res));
    }
  })();
})();
