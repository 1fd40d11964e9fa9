// @ts-check
// Client code of the consent page a wallet opens (GET /authorize, src/routes/attestations/consent-page.tsx),
// served as /assets/consent.js after common.js and passkeys.js. Without it the form posts the email and
// password to POST /authorize, which cannot take a passkey. With it, the page signs in through the API
// (POST /api/auth/login) and approves the wallet's request (POST /api/attestations/authorizations); an
// account with a passkey confirms with it, as its approvals on /verify do (the server asks for it with
// 403 PASSKEY_REQUIRED, which counts nothing); then the browser goes to the wallet's redirect_uri with
// the code. The sign-in lives in this script only and is stored nowhere: this page is the wallet's way
// in, not the person's account page. Texts from the page's catalogue (A.t).
(function () {
  "use strict";
  var A = window.AVS;
  var P = window.AVS_PASSKEYS;
  var t = A.t;
  // The wallet's request, as GET /authorize checked it: the page's own address holds it.
  var REQUEST = ["response_type", "scope", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state"];
  var query = new URLSearchParams(location.search);
  /** @type {Record<string, unknown>} */
  var request = {};
  REQUEST.forEach(function (name) {
    var value = query.get(name);
    if (value !== null) request[name] = value;
  });
  /** @type {Wording} the refusals in the words POST /authorize uses for them */
  var wording = {
    codes: {
      INVALID_CREDENTIALS: t("consent.error.credentials"),
      KYC_REQUIRED: t("consent.error.kyc"),
      ATTESTATION_NOT_ALLOWED: t("consent.error.underage"),
      RATE_LIMITED: t("consent.error.limited"),
    },
  };

  A.onSubmit(
    A.form("consent-form"),
    async function (values, form) {
      var signedIn = await A.api("POST", "/api/auth/login", { body: { email: values.email, password: values.password } });
      if (!signedIn.ok) return signedIn;
      var token = signedIn.data.token;
      var res = await A.api("POST", "/api/attestations/authorizations", { token: token, body: request });
      var held = !res.ok && res.error === "PASSKEY_REQUIRED" ? await P.confirmationOf(token) : null;
      if (held) {
        if (!held.ok) return held;
        res = await A.api("POST", "/api/attestations/authorizations", {
          token: token,
          body: Object.assign({ confirmation: held.assertion }, request),
        });
      }
      if (!res.ok) return res;
      form.reset();
      A.notice(/** @type {HTMLElement} */ (form.querySelector(".notice")), t("consent.working"), "ok");
      location.assign(res.data.redirect_to);
      return res;
    },
    wording,
  );
})();
