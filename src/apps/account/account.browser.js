// @ts-check
// Client code of the account link pages (/assets/account.js). Texts from the page's catalogue (A.t).
(function () {
  "use strict";
  var A = window.AVS;
  var kind = A.$("account-app").getAttribute("data-kind");
  var token = new URLSearchParams(location.search).get("token") || "";
  // The token has done its job in the address bar: keep it out of history and bookmarks.
  if (location.search) history.replaceState(null, "", location.pathname);

  /**
   * @param {string} message
   * @param {"error" | "ok"} kindOfNotice
   * @param {{ userType?: string }} [user]
   */
  function done(message, kindOfNotice, user) {
    A.show("account-working", false);
    A.notice("account-status", message, kindOfNotice);
    A.show("account-next", true);
    A.show("account-console", user?.userType !== "PERSONAL");
    A.$("account-title").focus();
  }

  /** @param {Failure} res */
  function failed(res) {
    done(res.error === "INVALID_TOKEN" || res.error === "VALIDATION_FAILED" ? A.t("link.invalid") : A.messageFor(res), "error");
  }

  /** @param {string} path @param {(user: { email: string }) => string} success */
  async function confirm(path, success) {
    if (!token) return failed({ error: "INVALID_TOKEN" });
    var res = await A.api("POST", path, { body: { token: token } });
    if (!res.ok) return failed(res);
    done(success(res.data.user), "ok", res.data.user);
  }

  if (kind === "verify-email") {
    confirm("/api/auth/verify-email", function (user) {
      return A.t("link.email_confirmed", { email: user.email });
    });
  } else if (kind === "confirm-email-change") {
    confirm("/api/auth/confirm-email-change", function (user) {
      return A.t("link.email_changed", { email: user.email });
    });
  } else if (kind === "reset-password") {
    if (!token) failed({ error: "INVALID_TOKEN" });
    A.onSubmit(A.form("reset-form"), async function (values, form) {
      var res = await A.api("POST", "/api/auth/reset-password", { body: { token: token, newPassword: values.newPassword } });
      if (res.ok) {
        form.hidden = true;
        done(A.t("link.password_changed"), "ok");
        return res;
      }
      if (res.error === "INVALID_TOKEN") {
        form.hidden = true;
        failed(res);
        return { ok: true };
      }
      return res;
    });
  }
})();
