// @ts-check
// Client code of the person's own account page (/assets/account-page.js), loaded after passkeys.js,
// age-tokens.js and qr-code.js. It shows what the service holds about the signed-in person and changes it
// through the public JSON API only (/api/users/*, /api/kyc/status, /api/users/me/passkeys), and makes a
// proof-of-age offer for their wallet (/api/attestations/offers). The sign-in is the one
// /verify keeps in this tab's sessionStorage, so a person who followed "Your account" from a request is
// already signed in; texts come from the page's catalogue (A.t).
(function () {
  "use strict";
  var A = window.AVS;
  var P = window.AVS_PASSKEYS;
  var T = window.AVS_AGE_TOKENS;
  var tokens = A.tokenStore("avs.verify.token");
  var token = tokens.get();
  var locale = document.documentElement.lang || "en";
  var t = A.t;

  var SECTIONS = [
    "me-loading",
    "me-signin",
    "me-business",
    "me-deleted",
    "me-held",
    "passkey-settings",
    "me-password",
    "me-email-change",
    "me-proof",
    "me-delete",
  ];
  var SIGNED_IN = ["me-held", "passkey-settings", "me-password", "me-email-change", "me-proof", "me-delete"];
  /** @param {string[]} visible @param {string} [heading] the heading that takes the focus (tabindex=-1) */
  function showSections(visible, heading) {
    SECTIONS.forEach(function (id) {
      A.show(id, visible.indexOf(id) >= 0);
    });
    if (heading) {
      A.$(heading).focus();
      document.title = A.$(heading).textContent || document.title;
    }
  }

  // The way back to the request this person came from (/verify stores its own address before it links here).
  var back = null;
  try {
    back = sessionStorage.getItem("avs.account.back");
  } catch {
    back = null;
  }
  if (back && /^\/verify\?/.test(back)) {
    A.$("me-back").setAttribute("href", back);
    A.show("me-back-line", true);
  }

  /** @param {Failure} res */
  function banner(res) {
    A.notice("me-banner", A.messageFor(res), "error");
  }

  // --- Signing in and out -----------------------------------------------------------------------
  /** @param {string} [message] */
  function showSignIn(message) {
    A.show("me-sign-out", false);
    A.notice("me-signin-notice", message || "", "info");
    showSections(["me-signin"], "me-signin-title");
  }
  // Nothing left behind on a shared device: the sign-in and the anonymous tokens of this browser go.
  /** @param {string} [message] */
  function forget(message) {
    tokens.clear();
    T.clear();
    token = null;
    closeOffer();
    document.querySelectorAll("form").forEach(function (form) {
      form.reset();
      A.clearFieldErrors(form);
    });
    showSignIn(message);
  }
  A.$("me-sign-out").addEventListener("click", function () {
    forget(t("me.signed_out"));
  });

  A.onSubmit(A.form("me-login-form"), async function (values) {
    var res = await A.api("POST", "/api/auth/login", { body: { email: values.email, password: values.password } });
    if (!res.ok) return res;
    token = res.data.token;
    tokens.set(res.data.token);
    A.form("me-login-form").reset();
    load();
    return res;
  });
  A.onSubmit(A.form("forgot-form"), async function (values, form) {
    var res = await A.api("POST", "/api/auth/forgot-password", { body: { email: values.email } });
    if (res.ok) A.notice(form.querySelector(".notice"), t("forgot.sent"), "ok");
    return res;
  });

  // --- What the service holds -------------------------------------------------------------------
  /** @type {{ email: string } | null} the account as last read */
  var account = null;
  // Deleting needs a confirmed address (EMAIL_NOT_VERIFIED): the link can be sent again from here.
  A.$("me-email-resend").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), async function () {
      var res = await A.api("POST", "/api/auth/resend-verification", { token: token });
      if (res.status === 401) return forget(t("account.signed_out"));
      A.text("me-email-resent", res.ok ? t("me.email.resent", { email: account ? account.email : "" }) : A.messageFor(res));
    });
  });
  async function load() {
    A.show("me-banner", false);
    if (!token) return showSignIn();
    showSections(["me-loading"]);
    var me = await A.api("GET", "/api/users/me", { token: token });
    if (!me.ok) {
      if (me.status === 401) return forget(t("account.signed_out"));
      return banner(me);
    }
    var user = me.data.user;
    A.show("me-sign-out", true);
    if (user.userType !== "PERSONAL") return showSections(["me-business"], "me-business-title");
    var kyc = await A.api("GET", "/api/kyc/status", { token: token });
    if (!kyc.ok && kyc.status === 401) return forget(t("account.signed_out"));
    A.text("me-email", t(user.emailVerified ? "me.email.confirmed" : "me.email.unconfirmed", { email: user.email }));
    A.show("me-email-resend", !user.emailVerified);
    A.text("me-email-resent", "");
    account = user;
    A.text("me-identity", identityText(kyc.ok ? kyc.data : null));
    A.text("me-created", A.formatDateTime(user.createdAt, locale));
    showSections(SIGNED_IN, "me-title");
    await P.refresh(token, false, false);
    await drawTokens();
    await drawProofOfAge(kyc.ok ? kyc.data : null);
  }

  /** @param {{ status: string, verifiedAt: string | null } | null} kyc */
  function identityText(kyc) {
    if (!kyc) return t("me.identity.unknown");
    if (kyc.status === "VERIFIED") return t("me.identity.verified", { date: A.formatDateTime(kyc.verifiedAt, locale) });
    if (kyc.status === "PENDING") return t("me.identity.pending");
    if (kyc.status === "REJECTED") return t("me.identity.rejected");
    return t("me.identity.none");
  }

  // The anonymous age tokens live in this browser only (age-tokens.browser.js): the server keeps no list of them.
  async function drawTokens() {
    var count = await T.count();
    A.text(
      "me-tokens",
      typeof indexedDB === "undefined"
        ? t("me.tokens.unavailable")
        : count > 0
          ? t("me.tokens.count", { count: count })
          : t("me.tokens.none"),
    );
    A.show("me-tokens-clear", count > 0);
  }
  A.$("me-tokens-clear").addEventListener("click", async function () {
    await T.clear();
    await drawTokens();
    // The button is gone: the focus goes to the line that says so.
    A.$("me-tokens").focus();
  });

  // --- Proof of age for a wallet (docs/attestations.md) -------------------------------------------
  /** @type {{ qrSvg: (text: string, label: string) => SVGSVGElement }} the QR encoder (qr-code.js) */
  var QR = /** @type {any} */ (window).AVS_QR;
  /** Why no offer can be made, in the page's words, by the offer route's refusal. @type {Record<string, string>} */
  var NO_OFFER = { KYC_REQUIRED: "me.proof.kyc", ATTESTATION_NOT_ALLOWED: "me.proof.underage", NOT_FOUND: "me.proof.unavailable" };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var offerEnds;

  /** The button, or the reason (a catalogue key) in its place. @param {string | null} reason */
  function drawProofReason(reason) {
    closeOffer();
    A.notice("me-proof-notice", reason ? t(reason) : "", "info");
    A.show("me-proof-start", !reason);
  }
  // What can be known before asking: an identity not verified (the KYC status), a deployment that issues
  // nothing (its issuer metadata is 404). Under 18 is known only to the server, which refuses the offer.
  /** @param {{ status: string } | null} kyc */
  async function drawProofOfAge(kyc) {
    if (kyc && kyc.status !== "VERIFIED") return drawProofReason("me.proof.kyc");
    var metadata = await A.api("GET", "/.well-known/openid-credential-issuer");
    drawProofReason(metadata.status === 404 ? "me.proof.unavailable" : null);
  }
  // The offer's code and QR code leave the page when it closes, expires or the person signs out.
  function closeOffer() {
    clearTimeout(offerEnds);
    A.$("me-proof-qr").textContent = "";
    A.text("me-proof-code", "");
    A.$("me-proof-open").setAttribute("href", "#me-proof");
    A.$("me-proof-other").setAttribute("href", "#me-proof");
    A.show("me-proof-offer", false);
  }
  /** @param {{ av_uri: string, credential_offer_uri: string, tx_code: string, expires_at: string }} offer @param {string | null | undefined} serverDate */
  function showOffer(offer, serverDate) {
    // The EU blueprint's av:// form, which its age verification app opens, in the QR code and the link;
    // the standard form for any other OpenID4VCI wallet.
    A.$("me-proof-qr").replaceChildren(QR.qrSvg(offer.av_uri, t("me.proof.qr")));
    A.$("me-proof-open").setAttribute("href", offer.av_uri);
    A.$("me-proof-other").setAttribute("href", offer.credential_offer_uri);
    A.text("me-proof-code", offer.tx_code);
    A.text("me-proof-expires", t("me.proof.expires", { time: A.formatDateTime(offer.expires_at, locale) }));
    A.show("me-proof-start", false);
    A.show("me-proof-offer", true);
    A.$("me-proof-offer").focus();
    // Timed by the server's clock (its Date header), not the device's, which may be off by minutes.
    var now = serverDate ? Date.parse(serverDate) : Date.now();
    offerEnds = setTimeout(
      function () {
        drawProofReason(null);
        A.notice("me-proof-notice", t("me.proof.expired"), "info");
      },
      Math.max(0, Date.parse(offer.expires_at) - (Number.isNaN(now) ? Date.now() : now)),
    );
  }
  A.$("me-proof-start").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), async function () {
      A.notice("me-proof-notice", "", "info");
      // An account with a passkey confirms with it (403 PASSKEY_REQUIRED without), as for its approvals.
      /** @type {unknown} */
      var confirmation;
      var held = P.needed() ? await P.confirmation() : null;
      if (held) {
        if (!held.ok) return A.notice("me-proof-notice", A.messageFor(held), "error");
        confirmation = held.assertion;
      }
      var res = await A.api("POST", "/api/attestations/offers", { token: token, body: { confirmation: confirmation } });
      if (res.ok) return showOffer(res.data, res.date);
      if (res.status === 401) return forget(t("account.signed_out"));
      if (NO_OFFER[res.error]) return drawProofReason(NO_OFFER[res.error]);
      A.notice("me-proof-notice", A.messageFor(res), "error");
    });
  });
  A.$("me-proof-close").addEventListener("click", function () {
    closeOffer();
    A.show("me-proof-start", true);
    A.$("me-proof-start").focus();
  });

  // --- Changes ----------------------------------------------------------------------------------
  /**
   * The API's answer to a change that checks the password: a wrong one is a field error in the page's
   * words (401 INVALID_CREDENTIALS), an ended sign-in (401 UNAUTHORIZED) goes back to signing in.
   * @param {ApiResult} res @param {string} field
   */
  function refused(res, field) {
    if (res.ok) return res;
    if (res.error === "INVALID_CREDENTIALS")
      return {
        ok: false,
        status: 422,
        error: "VALIDATION_FAILED",
        message: "",
        errors: [{ path: field, message: t("me.password.wrong"), own: true }],
      };
    if (res.status === 401) {
      forget(t("account.signed_out"));
      return { ok: true };
    }
    return res;
  }
  /** @param {string} field @param {string} message */
  function fieldProblem(field, message) {
    return { ok: false, status: 422, error: "VALIDATION_FAILED", message: "", errors: [{ path: field, message: message, own: true }] };
  }

  A.onSubmit(A.form("me-password-form"), async function (values, form) {
    if (!values.currentPassword) return fieldProblem("currentPassword", t("me.password.required"));
    var res = await A.api("POST", "/api/users/change-password", {
      token: token,
      body: { currentPassword: values.currentPassword, newPassword: values.newPassword },
    });
    if (!res.ok) return refused(res, "currentPassword");
    // Every earlier token stopped working, this tab's too: the answer carries its replacement.
    token = res.data.token;
    tokens.set(res.data.token);
    await P.refresh(token, false, false);
    form.reset();
    A.notice(form.querySelector(".notice"), t("me.password.done"), "ok");
    return { ok: true };
  });

  A.onSubmit(A.form("me-email-form"), async function (values, form) {
    if (!values.password) return fieldProblem("password", t("me.password.required"));
    var res = await A.api("POST", "/api/users/change-email", {
      token: token,
      body: { newEmail: values.newEmail, password: values.password },
    });
    if (!res.ok) return refused(res, "password");
    form.reset();
    A.notice(form.querySelector(".notice"), t("me.email.sent", { email: values.newEmail }), "ok");
    return { ok: true };
  });

  // The password is asked even when the API would accept a recent sign-in alone: deleting is for good.
  A.onSubmit(A.form("me-delete-form"), async function (values) {
    if (!values.password) return fieldProblem("password", t("me.password.required"));
    var res = await A.api("DELETE", "/api/users/account", { token: token, body: { password: values.password } });
    if (!res.ok) return refused(res, "password");
    tokens.clear();
    await T.clear();
    token = null;
    try {
      sessionStorage.clear();
    } catch {
      /* nothing stored */
    }
    A.show("me-sign-out", false);
    A.show("me-back-line", false);
    showSections(["me-deleted"], "me-deleted-title");
    return { ok: true };
  });

  load();
})();
