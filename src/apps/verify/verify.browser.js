// @ts-check
// Client code of the verification page (/assets/verify.js). The flow: account, then the request
// (read with the nonce), then identity (KYC) if needed, then the decision, then a result screen.
// Uses only the public JSON API; the nonce is read from the page's own URL and sent in the
// X-Session-Nonce header, so it appears in no API URL.

/**
 * The request as the end user's endpoints return it (the server's own type).
 * @typedef {import("../../session/session-view").HolderSessionRequest} SessionRequest
 * The first screen's view, read with the nonce before any sign-in.
 * @typedef {import("../../session/session-view").SessionPreview} SessionPreview
 * The part of the Onfido Web SDK this page uses (loaded from ONFIDO_SDK_URL, see src/web/csp.ts).
 * @typedef {{ tearDown(): void }} OnfidoHandle
 * @typedef {{ init(options: { token: string, containerId: string, steps: string[], onComplete(): void, onError(): void }): OnfidoHandle }} OnfidoSdk
 */

(function () {
  "use strict";
  var A = window.AVS;
  var P = window.AVS_PASSKEYS;
  // Anonymous age tokens (age-tokens.js): the stock that answers double-blind requests.
  var T = window.AVS_AGE_TOKENS;
  // The SDK's global, once its script has loaded.
  var sdkWindow = /** @type {Window & { Onfido?: OnfidoSdk }} */ (window);
  var root = A.$("verify-app");
  var provider = root.getAttribute("data-provider");
  var tokens = A.tokenStore("avs.verify.token");
  var params = new URLSearchParams(location.search);
  var sessionId = params.get("session_id") || "";
  var nonce = params.get("nonce") || "";
  var token = tokens.get();
  /** @type {SessionRequest | null} */
  var request = null;
  /** @type {SessionPreview | null} */
  var preview = null;
  // Non-zero while the request is open on screen: an interval id, or -1 while the server is asked
  // whether it has expired.
  var timer = 0;
  // Server time minus device time, from the Date header: a phone's clock may be minutes off.
  var clockOffset = 0;
  /** @type {(() => void) | null} */
  var retry = null;
  // Whether the wallet's section (offer, or the line saying this browser cannot use one) is on screen.
  var walletShown = false;
  // Whether the wallet is the request's only way, and whether "Or answer with an account" follows it.
  var walletOnly = false;
  var walletOr = false;
  // Whether this browser has the Digital Credentials API (the wallet's button is on screen).
  var walletSupported = false;
  // Whether the identity check finished on this page just now: the answer step then says so once.
  var identityJustVerified = false;
  var tabs = A.tabs(/** @type {HTMLElement} */ (A.$("step-account").querySelector(".tabs")));

  var SECTIONS = [
    "step-loading",
    "step-test",
    "step-intro",
    "step-later",
    "step-decline",
    "step-request",
    "step-wallet",
    "step-account",
    "step-kyc",
    "step-decide",
    "step-double-blind",
    "step-result",
    "passkey-offer",
    "passkey-settings",
  ];
  /** @type {Record<string, string>} */
  var HEADINGS = {
    "step-test": "test-title",
    "step-intro": "intro-title",
    "step-later": "later-title",
    "step-decline": "decline-title",
    "step-request": "request-title",
    "step-kyc": "kyc-title",
    "step-decide": "decide-title",
    "step-double-blind": "double-blind-title",
    "step-result": "result-title",
  };
  // Hiding the section that holds the focus drops it to <body>; so the heading (tabindex=-1) of the
  // first section that just appeared takes it, and a screen reader reads the new step from its title.
  /** @param {string[]} visible */
  function showSections(visible) {
    // The wallet's way rides along with the first screen and the request, above the account path.
    if (walletShown && (visible.indexOf("step-intro") >= 0 || visible.indexOf("step-request") >= 0)) {
      visible = visible.concat("step-wallet");
      placeWallet(visible.indexOf("step-decide") >= 0);
    }
    var appeared = visible.filter(function (id) {
      return A.$(id).hidden && HEADINGS[id];
    });
    SECTIONS.forEach(function (id) {
      A.show(id, visible.indexOf(id) >= 0);
    });
    if (appeared.length) A.$(HEADINGS[appeared[0]]).focus();
    // The tab's title follows the step: the heading of the last section shown that has one.
    var titled = visible
      .filter(function (id) {
        return HEADINGS[id];
      })
      .pop();
    var title = titled ? A.$(HEADINGS[titled]).textContent : "";
    if (title) document.title = title;
  }
  // One filled button per screen, the way that will succeed on this device. Until the person's account can
  // answer (signed out, or the identity not verified yet), a wallet this browser can use answers in one
  // tap: it comes first, filled, and the account's buttons below are outlined. Once the account can answer,
  // "Send my answer" leads and the wallet follows it, outlined.
  var ACCOUNT_BUTTONS = [
    "#register-form [type=submit]",
    "#login-form [type=submit]",
    "#applicant-form [type=submit]",
    "#sandbox-form [type=submit]",
    "#onfido-start",
  ];
  /** @param {boolean} afterAnswer */
  function placeWallet(afterAnswer) {
    var wallet = A.$("step-wallet");
    var walletLeads = walletSupported && (walletOnly || !afterAnswer);
    // A wallet that does not lead (or a line saying this browser has none) follows every step of the account's way.
    var anchor = A.$(walletLeads || walletOnly ? "step-request" : "step-decide");
    if (anchor.nextElementSibling !== wallet) anchor.after(wallet);
    A.$("wallet-use").classList.toggle("secondary", !walletLeads);
    ACCOUNT_BUTTONS.forEach(function (selector) {
      var button = document.querySelector(selector);
      if (button) button.classList.toggle("secondary", walletLeads);
    });
    A.show("wallet-or", walletOr && walletLeads);
  }
  /** @param {boolean} signedIn */
  function showAccountBar(signedIn) {
    A.show("switch-account", signedIn);
    A.show("account-link", signedIn);
  }
  // The account page (/account) reads the same sign-in; it offers the way back to this request.
  A.$("account-link").addEventListener("click", function () {
    try {
      sessionStorage.setItem("avs.account.back", location.pathname + location.search);
    } catch {
      /* no way back offered */
    }
  });
  /** @param {"account" | "identity" | "decision" | null} current */
  function progress(current) {
    var order = ["account", "identity", "decision"];
    A.show("progress", current !== null);
    order.forEach(function (name, index) {
      var li = A.$("progress-" + name);
      var at = current === null ? -1 : order.indexOf(current);
      li.className = index < at ? "done" : index === at ? "current" : "";
      if (index === at) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
    });
  }
  function merchant() {
    return request?.merchant_name || preview?.merchant_name || t("merchant.fallback");
  }
  function ageRequired() {
    return request ? request.age_required : preview ? preview.age_required : "";
  }

  // --- Texts --------------------------------------------------------------------------------------
  // The server picks the language and hands its catalogue over as data (src/web/i18n); whole sentences
  // only, with {named} values filled in. Dates and times are formatted for that language.
  var locale = document.documentElement.lang || "en";
  var t = A.t;
  /** One date format for every date the page shows (A.formatDateTime), in the page's language. @param {string} iso */
  function when(iso) {
    return A.formatDateTime(iso, locale);
  }

  // A failure that is not about the user's input: a banner with a retry of the step that failed.
  /** @param {Failure} result @param {() => void} [again] */
  function banner(result, again) {
    retry = again || null;
    A.text("banner-text", A.messageFor(result));
    A.show("banner-retry", !!again);
    A.show("banner", true);
  }
  function clearBanner() {
    A.show("banner", false);
    retry = null;
  }
  A.$("banner-retry").addEventListener("click", function () {
    var again = retry;
    clearBanner();
    if (again) again();
  });

  /**
   * @param {"approved" | "declined" | "underage" | "underage_wallet" | "expired" | "used" | "invalid" | "withdrawn"} kind
   * @param {{ receipt_id?: string | null }} [extra]
   */
  function result(kind, extra) {
    stopCountdown();
    progress(null);
    showAccountBar(false);
    walletShown = false;
    var values = { merchant: merchant(), age: ageRequired() };
    var answeredAt = preview?.resolved_at ? when(preview.resolved_at) : "";
    /** @type {Record<string, [string, string, string, string]>} */
    var screens = {
      approved: ["ok", ICONS.check, t("result.approved.title", values), t("result.approved.text", values)],
      declined: ["neutral", ICONS.minus, t("result.declined.title", values), t("result.declined.text", values)],
      underage: ["bad", ICONS.cross, t("result.underage.title", values), t("result.underage.text", values)],
      underage_wallet: ["bad", ICONS.cross, t("result.underage.title", values), t("result.underage.wallet", values)],
      expired: ["neutral", ICONS.clock, t("result.expired.title", values), t("result.expired.text", values)],
      // An earlier decline is not shown with a check mark: the icon says which answer it was.
      used: [
        "neutral",
        preview && preview.status === "APPROVED" ? ICONS.check : ICONS.minus,
        t(preview && preview.status === "APPROVED" ? "result.used.approved" : "result.used.denied", { time: answeredAt }),
        t("result.used.text", values),
      ],
      invalid: ["bad", ICONS.question, t("result.invalid.title"), t("result.invalid.text")],
      // Withdrawn by the website that made it: "no longer valid", and nothing about why or about the website.
      withdrawn: ["neutral", ICONS.minus, t("result.withdrawn.title"), t("result.withdrawn.text")],
    };
    var dead = kind === "invalid" || kind === "withdrawn";
    var screen = screens[kind];
    // A test session's chosen outcome is not a verification: its own title, and the marker's sentence in
    // place of "now knows that you are at least…" (docs/end-user-apps.md).
    var testing = !dead && !!preview && preview.livemode === false;
    /** @type {Record<string, string>} */
    var testTitles = { approved: "test.result.approved", underage: "test.result.underage", declined: "test.result.declined" };
    if (testing && testTitles[kind]) screen = [screen[0], screen[1], t(testTitles[kind], values), ""];
    A.$("result-icon").className = "result-icon " + screen[0];
    showIcon(screen[1]);
    A.text("result-title", screen[2]);
    A.text("result-text", screen[3]);
    A.show("result-text", !!screen[3]);
    A.text("result-receipt", extra?.receipt_id ? t("result.receipt", { receipt: extra.receipt_id }) : "");
    showReturn(!dead);
    showTestMarker(testing, values);
    A.show("account-notice", false);
    showSections(["step-result"]);
    A.$("step-result").setAttribute("data-result", kind);
    A.$("result-title").focus();
  }

  // A link that opens no request: broken, mistyped or unknown (404), or withdrawn by the website that made
  // it (410 SESSION_WITHDRAWN: docs/end-user-apps.md). True when its screen is shown.
  /** @param {{ status?: number, error?: string }} res @returns {boolean} */
  function deadLink(res) {
    if (res.error === "SESSION_WITHDRAWN") {
      result("withdrawn");
      return true;
    }
    if (res.status === 404 || res.error === "NOT_FOUND") {
      result("invalid");
      return true;
    }
    return false;
  }

  // A test session's result says so in words, not by colour (docs/end-user-apps.md): the title is read with it.
  /** @param {boolean} testing @param {{ merchant: string, age: number | string }} values */
  function showTestMarker(testing, values) {
    A.text("result-test-text", testing ? t("test.result", values) : "");
    A.show("result-test", testing);
    if (testing) A.$("result-title").setAttribute("aria-describedby", "result-test");
    else A.$("result-title").removeAttribute("aria-describedby");
  }

  // The icons are inline SVG in the page's markup (src/apps/verify/verify-page.tsx): one is shown.
  var ICONS = { check: "check", minus: "minus", cross: "cross", clock: "clock", question: "question" };
  /** @param {string} name */
  function showIcon(name) {
    A.$("result-icon")
      .querySelectorAll("svg")
      .forEach(function (svg) {
        if (svg.getAttribute("data-icon") === name) svg.removeAttribute("hidden");
        else svg.setAttribute("hidden", "");
      });
  }

  // --- The way back -------------------------------------------------------------------------------
  // Every result screen offers a way back to the merchant: its return_url when it gave one, otherwise
  // the words "you can close this page".
  /** @param {boolean} known whether the link named a real session (and so a merchant) */
  function showReturn(known) {
    var href = known ? returnHref() : null;
    var link = /** @type {HTMLAnchorElement} */ (A.$("result-return"));
    if (href) {
      link.href = href;
      A.text(link, preview?.merchant_name ? t("result.return", { merchant: preview.merchant_name }) : t("result.return.anonymous"));
    } else {
      link.removeAttribute("href");
    }
    A.show(link, !!href);
    A.show("result-close", !href);
  }
  /** The merchant's return_url with the session id added, or null (none given, or not http(s)). */
  function returnHref() {
    var given = preview?.return_url || (request && /** @type {{ return_url?: string | null }} */ (request).return_url) || null;
    if (!given) return null;
    try {
      var url = new URL(given);
      if (url.protocol !== "https:" && url.protocol !== "http:") return null;
      url.searchParams.set("session_id", sessionId);
      return url.href;
    } catch {
      return null;
    }
  }

  // --- Test mode ---------------------------------------------------------------------------
  /** @param {SessionPreview} shown */
  function showTestMode(shown) {
    request = {
      session_id: sessionId,
      age_required: shown.age_required,
      merchant_name: shown.merchant_name,
      status: "PENDING",
      expires_at: shown.expires_at,
      livemode: false,
      locale: shown.locale,
      return_url: shown.return_url,
      require_passkey: false,
      accepted_assurance: shown.accepted_assurance,
      double_blind: shown.double_blind,
      meets_age_required: null,
    };
    progress(null);
    showAccountBar(false);
    // The banner names who asks and for which age, as the live first screen does.
    A.text("test-notice-text", t("test.notice.named", { merchant: merchant(), age: shown.age_required }));
    showSections(["step-test"]);
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-test-outcome]"), function (/** @type {HTMLButtonElement} */ button) {
    button.addEventListener("click", function () {
      A.show("test-notice", false);
      A.busy(button, async function () {
        var outcome = button.getAttribute("data-test-outcome");
        var res = await A.api("POST", sessionPath("/test-outcome"), { body: { nonce: nonce, outcome: outcome } });
        if (res.ok) {
          if (res.data.status === "EXPIRED") return result("expired");
          return result(outcome === "APPROVED" ? "approved" : outcome === "DENIED_REFUSED" ? "declined" : "underage", res.data);
        }
        if (deadLink(res)) return;
        if (res.error === "SESSION_NOT_PENDING") return result("used");
        A.notice("test-notice", A.messageFor(res), "error");
      });
    });
  });

  // --- Countdown ------------------------------------------------------------------------------
  // The countdown runs on the server's clock (device clock + offset from the Date header), and at zero
  // the server has the last word: only its answer shows the expired screen.
  function serverNow() {
    return Date.now() + clockOffset;
  }
  // fetch has no timeout of its own: one request sent and never answered (nor failed) would stop the
  // step that awaits it. Past the limit the answer counts as a network failure; a late one is ignored.
  var ANSWER_WITHIN_MS = 5000;
  /** @param {number} ms @param {Promise<ApiResult>} call @returns {Promise<ApiResult>} */
  function answerWithin(ms, call) {
    return Promise.race([
      call,
      new Promise(function (resolve) {
        setTimeout(function () {
          resolve({ ok: false, status: 0, error: "NETWORK", message: "", errors: [] });
        }, ms);
      }),
    ]);
  }
  /** @param {ApiSuccess} res @param {number} sentAt */
  function learnClock(res, sentAt) {
    var date = res.date ? Date.parse(res.date) : NaN;
    // The header has whole seconds; +500 ms is the middle of that second, the request's middle is ours.
    if (!Number.isNaN(date)) clockOffset = date + 500 - (sentAt + Date.now()) / 2;
  }
  function stopCountdown() {
    if (timer) {
      clearInterval(timer);
      timer = 0;
    }
  }
  function tick() {
    // Only while a request is on screen.
    var shown = /** @type {SessionRequest} */ (request);
    var left = Math.max(0, Math.ceil((Date.parse(shown.expires_at) - serverNow()) / 1000));
    var minutes = Math.floor(left / 60);
    var seconds = left % 60;
    var time = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
    // The last minute is told by words and, once, to a screen reader, not by the colour alone.
    var ending = left < 60;
    A.text("countdown", t(ending ? "countdown.ending" : "countdown.left", { time: time }));
    A.$("countdown").classList.toggle("ending", ending);
    var alert = A.$("countdown-alert");
    if (ending && !alert.textContent) A.text(alert, t("countdown.ending.announce"));
    if (!ending && alert.textContent) A.text(alert, "");
    if (left === 0) {
      clearInterval(timer);
      timer = -1;
      confirmExpiry(0);
    }
  }
  // The Date header has whole seconds, so the estimate may be early by about one: a PENDING answer
  // near expiry is asked again each second; the expiry alarm turns it EXPIRED. If the alarm is late,
  // after 10 s the page says expired anyway: completing past expires_at is refused.
  // The read at zero reaches the session's object just as its expiry alarm runs; a read that is held
  // there (wrangler dev held one 25 s under load) or lost must not leave the page on the request for
  // good, so an answer later than ANSWER_WITHIN_MS counts as none.
  /** @param {number} round */
  async function confirmExpiry(round) {
    var sentAt = Date.now();
    // A double-blind request is never read with the account: its preview says the same.
    var res = await answerWithin(
      ANSWER_WITHIN_MS,
      doubleBlind
        ? A.api("GET", sessionPath("/preview"), { nonce: nonce })
        : A.api("GET", sessionPath("/request"), { token: token, nonce: nonce }),
    );
    if (timer !== -1) return; // answered, signed out or left meanwhile
    if (!res.ok) {
      if (res.status === 401) {
        timer = 0;
        return signedOut();
      }
      if (deadLink(res)) return;
      // No answer in time (network, 5xx, held): the server-corrected clock is the best word left.
      return result("expired");
    }
    learnClock(res, sentAt);
    request = /** @type {SessionRequest} */ (res.data);
    if (request.status === "EXPIRED") return result("expired");
    // Answered meanwhile (elsewhere): the first screen's read says what was answered and when.
    if (request.status !== "PENDING") {
      timer = 0;
      return loadPreview();
    }
    if (Date.parse(/** @type {SessionRequest} */ (request).expires_at) - serverNow() > 2000) {
      // Time is left after all: the device clock was off more than the offset said.
      timer = setInterval(tick, 1000);
      return tick();
    }
    if (round >= 10) return result("expired");
    setTimeout(function () {
      if (timer === -1) confirmExpiry(round + 1);
    }, 1000);
  }
  function startCountdown() {
    stopCountdown();
    var shown = /** @type {SessionRequest} */ (request);
    A.text("request-detail", t("intro.valid", { time: when(shown.expires_at) }));
    // The interval first: a first tick at zero replaces it with the server check.
    timer = setInterval(tick, 1000);
    tick();
  }

  // --- First screen -------------------------------------------------------------------------------
  // Before any sign-in: who asks, for which age, and whether the link can still be answered (the
  // nonce proves the link). A dead link is told here, not after the person has made an account.
  async function loadPreview() {
    clearBanner();
    showSections(["step-loading"]);
    var sentAt = Date.now();
    var res = await A.api("GET", sessionPath("/preview"), { nonce: nonce });
    if (!res.ok) {
      if (deadLink(res)) return;
      if (res.status === 422) return result("invalid");
      return banner(res, loadPreview);
    }
    learnClock(res, sentAt);
    preview = /** @type {SessionPreview} */ (res.data);
    if (preview.status === "EXPIRED") return result("expired");
    if (preview.status !== "PENDING") return result("used");
    // A test session (opened with a test key): no account and no identity check; the tester picks the outcome.
    if (preview.livemode === false) return showTestMode(preview);
    showFirstScreen(preview);
    var account = accountPathOffered(preview);
    offerWallet(preview, account);
    if (!account) return showSections(["step-intro"]);
    // Double-blind: the preview is all the page reads of this request (see "Double-blind" below).
    if (preview.double_blind) return showDoubleBlind(preview);
    if (token) loadRequest();
    else showAccount();
  }

  // --- The ways offered -------------------------------------------------------------------------
  // Only the ways the merchant accepts (the preview's accepted_assurance, docs/api-contract.md §Session policy).
  /** @param {SessionPreview} shown */
  function accountPathOffered(shown) {
    if (shown.accepted_assurance.indexOf("KYC_VERIFIED") < 0) return false;
    // Double-blind refuses the account's approval and require_passkey the anonymous token (a bearer
    // token, bound to no key): together only the wallet's device signature can answer, so nothing else
    // is offered (docs/double-blind.md).
    if (shown.double_blind && shown.require_passkey) return false;
    // A double-blind session cannot be approved by a password or passkey (DOUBLE_BLIND_REQUIRED).
    if (shown.double_blind) return doubleBlindAccountPath(shown);
    return true;
  }
  // A double-blind request is still answered after a sign-in: the signed-in, verified person approves it
  // from the page's stock of anonymous age tokens (age-tokens.browser.js), never with the sign-in itself.
  // The stock lives in IndexedDB: a browser without it is offered the wallet alone.
  /** @param {SessionPreview} _shown @returns {boolean} */
  function doubleBlindAccountPath(_shown) {
    return typeof indexedDB !== "undefined";
  }

  /** @param {SessionPreview} shown @param {boolean} account whether the account path follows */
  function offerWallet(shown, account) {
    var accepted = shown.accepted_assurance.indexOf("DIGITAL_ID_VERIFIED") >= 0;
    var supported =
      typeof (/** @type {Window & { DigitalCredential?: unknown }} */ (window).DigitalCredential) !== "undefined" &&
      !!navigator.credentials;
    walletShown = accepted;
    walletOnly = accepted && !account;
    walletSupported = accepted && supported;
    walletOr = accepted && account;
    // Why the wallet is the only way, where the merchant's policy (not the browser) made it so.
    A.show("wallet-only-key", accepted && shown.double_blind && shown.require_passkey);
    // "Sign in or create an account" is not said above a wallet that answers with no account.
    A.text("intro-how", t(account && !(accepted && supported) ? "intro.how" : "intro.how.wallet"));
    A.text("wallet-text", t("wallet.text", { age: shown.age_required }));
    A.show("wallet-offer", accepted && supported);
    A.text("wallet-unsupported", t(account ? "wallet.unsupported" : "wallet.unsupported.only"));
    A.show("wallet-unsupported", accepted && !supported);
    A.show("wallet-or", accepted && account);
    A.show("wallet-notice", false);
    // Wallet-only, and this browser cannot: the link to open in one that can, ready to copy.
    var elsewhere = accepted && !supported && !account;
    A.show("wallet-elsewhere", elsewhere);
    if (elsewhere) A.input("wallet-link").value = location.href;
  }
  A.$("wallet-copy").addEventListener("click", async function () {
    var field = A.input("wallet-link");
    var copied = false;
    try {
      await navigator.clipboard.writeText(field.value);
      copied = true;
    } catch {
      copied = false;
    }
    // Without the clipboard API (a page over plain http), the link is selected for the person to copy.
    if (!copied) {
      field.focus();
      field.select();
    }
    A.text("wallet-copied", copied ? t("wallet.copied") : "");
  });

  // One tap: the service's request, the wallet's answer through the browser, the service's verdict.
  A.$("wallet-use").addEventListener("click", async function (/** @type {MouseEvent} */ event) {
    var button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    A.show("wallet-notice", false);
    var asked = await A.busy(button, function () {
      return A.api("POST", sessionPath("/digital-id/request"), { nonce: nonce });
    });
    if (!asked.ok) return walletRefused(asked);
    var credential = await fromWallet(asked.data.requests);
    if (credential === "stopped") return A.notice("wallet-notice", t("wallet.no_answer"), "error");
    if (!credential || typeof credential.protocol !== "string" || !credential.data)
      return A.notice("wallet-notice", t("wallet.cancelled"), "error");
    var shared = credential;
    await A.busy(button, async function () {
      var res = await A.api("POST", sessionPath("/digital-id/response"), {
        nonce: nonce,
        body: { protocol: shared.protocol, data: shared.data },
      });
      if (!res.ok) return walletRefused(res);
      return result(res.data.status === "APPROVED" ? "approved" : "underage_wallet", res.data);
    });
  });

  // The browser's wallet prompt, with a way out: "Stop waiting", and after WALLET_WAIT_MS the page stops by
  // itself. A wallet that never answers (nor fails) would otherwise hold the button on "Sending…" for good;
  // the signal asks the browser to close its prompt, the race ends the wait even where it does not.
  var WALLET_WAIT_MS = 120000;
  /** @type {AbortController | null} */
  var walletWait = null;
  /** @param {unknown} requests @returns {Promise<{ protocol?: string, data?: unknown } | "stopped" | null>} */
  async function fromWallet(requests) {
    var controller = new AbortController();
    walletWait = controller;
    A.show("wallet-use", false);
    A.show("wallet-waiting", true);
    A.$("wallet-stop").focus();
    var stopped = new Promise(function (resolve) {
      controller.signal.addEventListener("abort", function () {
        resolve("stopped");
      });
    });
    var limit = setTimeout(function () {
      controller.abort();
    }, WALLET_WAIT_MS);
    try {
      var asked = navigator.credentials
        .get(/** @type {any} */ ({ digital: { requests: requests }, signal: controller.signal }))
        .catch(function () {
          return null;
        });
      return /** @type {any} */ (await Promise.race([asked, stopped]));
    } finally {
      clearTimeout(limit);
      walletWait = null;
      A.show("wallet-waiting", false);
      A.show("wallet-use", true);
      A.$("wallet-use").focus();
    }
  }
  A.$("wallet-stop").addEventListener("click", function () {
    if (walletWait) walletWait.abort();
  });
  /** @param {Failure & { status?: number }} res */
  function walletRefused(res) {
    if (deadLink(res)) return;
    if (res.error === "SESSION_NOT_PENDING") return loadPreview();
    /** @type {Record<string, string>} */
    var words = {
      DIGITAL_ID_INVALID: t("wallet.invalid"),
      DIGITAL_ID_INSUFFICIENT: t("wallet.insufficient", { age: ageRequired() }),
      RATE_LIMITED: t("wallet.limited"),
      ASSURANCE_NOT_ACCEPTED: t("wallet.not_accepted"),
      VALIDATION_FAILED: t("wallet.invalid"),
    };
    A.notice("wallet-notice", (res.error && words[res.error]) || A.messageFor(res), "error");
  }
  /** @param {SessionPreview} shown */
  function showFirstScreen(shown) {
    var values = { merchant: shown.merchant_name, age: shown.age_required };
    var title = shown.merchant_name ? t("intro.asks", values) : t("intro.asks.anonymous", values);
    A.text("intro-title", title);
    A.text("intro-valid", t("intro.valid", { time: when(shown.expires_at) }));
    A.text("decline-text", t("decline.text", { merchant: merchant() }));
    document.title = title;
  }
  /** @param {string} tail */
  function sessionPath(tail) {
    return "/api/age-verification/session/" + encodeURIComponent(sessionId) + tail;
  }

  // --- Declining without an account ---------------------------------------------------------------
  // "Not now" from the first screen, then a confirmation; no account and no identity check.
  /** @type {string[]} */
  var beforeDecline = [];
  A.$("intro-decline").addEventListener("click", function () {
    beforeDecline = SECTIONS.filter(function (id) {
      return !A.$(id).hidden;
    });
    A.show("decline-notice", false);
    showSections(["step-decline"]);
  });
  A.$("decline-back").addEventListener("click", function () {
    showSections(beforeDecline.length ? beforeDecline : ["step-intro", "step-account"]);
    A.$("intro-decline").focus();
  });
  // "Not now" means later: nothing is sent, the link stays valid until it expires.
  A.$("not-now").addEventListener("click", function () {
    beforeDecline = SECTIONS.filter(function (id) {
      return !A.$(id).hidden;
    });
    A.text("later-text", t("later.text", { merchant: merchant(), time: preview ? when(preview.expires_at) : "" }));
    showSections(["step-later"]);
  });
  A.$("later-back").addEventListener("click", function () {
    showSections(beforeDecline.length ? beforeDecline : ["step-intro", "step-account"]);
    A.$("not-now").focus();
  });
  A.$("decline-confirm").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    var button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    A.busy(button, async function () {
      var res = await A.api("POST", sessionPath("/decline"), { nonce: nonce });
      if (res.ok) return result("declined", res.data);
      if (deadLink(res)) return;
      if (res.error === "SESSION_NOT_PENDING") return loadPreview();
      A.notice("decline-notice", A.messageFor(res), "error");
    });
  });

  // --- Account ----------------------------------------------------------------------------------
  function showAccount() {
    progress("account");
    showAccountBar(false);
    showSections(["step-intro", "step-account"]);
  }

  /** @param {{ token: string, user: { email: string } }} data @param {boolean} registered */
  function signedIn(data, registered) {
    token = data.token;
    tokens.set(data.token);
    if (registered) {
      A.notice("account-notice", t("account.created", { email: data.user.email }), "info");
    }
    // On a double-blind request the sign-in only serves a token the person chose to get.
    if (doubleBlind) return afterDoubleBlindSignIn();
    loadRequest();
  }

  A.onSubmit(A.form("register-form"), async function (values) {
    var res = await A.api("POST", "/api/auth/register", {
      body: { email: values.email, password: values.password, userType: "PERSONAL", locale: locale },
    });
    if (res.ok) {
      signedIn(res.data, true);
      return res;
    }
    if (res.error === "EMAIL_TAKEN") {
      tabs.select("tab-login");
      A.input("login-email").value = values.email;
      A.notice(A.$("login-form").querySelector(".notice"), t("account.email_taken"), "info");
      A.$("login-password").focus();
      return { ok: true };
    }
    return res;
  });

  A.onSubmit(A.form("login-form"), async function (values) {
    var res = await A.api("POST", "/api/auth/login", { body: { email: values.email, password: values.password } });
    if (res.ok) signedIn(res.data, false);
    return res;
  });

  A.onSubmit(A.form("forgot-form"), async function (values, form) {
    var res = await A.api("POST", "/api/auth/forgot-password", { body: { email: values.email } });
    if (res.ok) A.notice(form.querySelector(".notice"), t("forgot.sent"), "ok");
    return res;
  });

  A.$("switch-account").addEventListener("click", function () {
    forgetPerson();
    stopCountdown();
    showAccount();
  });

  // Nothing left behind on a shared phone: the sign-in, every field, every notice and every cached
  // answer go, and sessionStorage holds nothing of this page; the next person starts blank.
  function forgetPerson() {
    tokens.clear();
    T.clear();
    token = null;
    request = null;
    try {
      sessionStorage.clear();
    } catch {
      /* nothing stored */
    }
    root.querySelectorAll("form").forEach(function (form) {
      form.reset();
      A.clearFieldErrors(form);
      var box = form.querySelector(".notice");
      if (box) A.show(/** @type {HTMLElement} */ (box), false);
    });
    ["account-notice", "kyc-notice", "decide-notice", "decline-notice"].forEach(function (id) {
      A.show(id, false);
    });
    A.text("decide-underage", "");
    A.show("decide-underage", false);
    A.show("decide-verified", false);
    identityJustVerified = false;
    A.text("onfido-status", "");
    clearBanner();
  }

  // An expired or revoked sign-in sends the user back to the account step, keeping the request.
  function signedOut() {
    forgetPerson();
    showAccount();
    A.notice(A.$("login-form").querySelector(".notice"), t("account.signed_out"), "info");
    tabs.select("tab-login");
  }

  // --- Request ----------------------------------------------------------------------------------
  async function loadRequest() {
    clearBanner();
    showSections(["step-loading"]);
    var sentAt = Date.now();
    var res = await A.api("GET", sessionPath("/request"), { token: token, nonce: nonce });
    if (!res.ok) {
      if (res.status === 401) return signedOut();
      if (deadLink(res)) return;
      if (res.status === 422) return result("invalid");
      return banner(res, loadRequest);
    }
    learnClock(res, sentAt);
    request = /** @type {SessionRequest} */ (res.data);
    // Answered or expired meanwhile: the first screen's read says what was answered and when.
    if (request.status !== "PENDING") return loadPreview();
    var values = { merchant: merchant(), age: request.age_required };
    A.text("request-title", t(request.merchant_name ? "intro.asks" : "intro.asks.anonymous", values));
    A.text("share-age", t("decide.share_age", values));
    A.text("decide-intro", t("decide.intro", values));
    A.text("approve", t("decide.send"));
    showAccountBar(true);
    startCountdown();
    loadKyc();
  }

  // --- Identity ---------------------------------------------------------------------------------
  async function loadKyc() {
    var res = await A.api("GET", "/api/kyc/status", { token: token });
    if (!res.ok) {
      if (res.status === 401) return signedOut();
      return banner(res, loadKyc);
    }
    applyKyc(res.data.status, res.data.reason);
  }

  /** @param {string} status @param {string} [reason] */
  function applyKyc(status, reason) {
    if (!timer) return; // the request expired meanwhile
    if (status === "VERIFIED") return decideWithAge();
    progress("identity");
    showSections(["step-request", "step-kyc"]);
    A.show("kyc-notice", false);
    var sandbox = provider !== "onfido";
    correcting = false;
    A.show("applicant-form", status === "NOT_STARTED");
    A.show("applicant-correct-intro", false);
    // A refusal for a document that verifies another account is not a typo: new details change nothing.
    A.show("kyc-correct", status === "REJECTED" && reason !== "IDENTITY_ALREADY_VERIFIED");
    if (sandbox) A.show("sandbox-form", status !== "NOT_STARTED");
    else {
      A.show("onfido-panel", status !== "NOT_STARTED");
      resetOnfido();
    }
    if (status === "REJECTED" && reason === "IDENTITY_ALREADY_VERIFIED") {
      A.notice("kyc-notice", t("kyc.rejected.duplicate"), "error");
    } else if (status === "REJECTED") {
      A.notice("kyc-notice", t(sandbox ? "kyc.rejected.sandbox" : "kyc.rejected.onfido"), "error");
    } else if (status === "PENDING" && !sandbox) {
      A.text("onfido-status", t("kyc.onfido.pending"));
      startPolling();
    }
  }

  // After a refused check the applicant form opens again, filled by the person, to correct a mistyped
  // name or date of birth (docs/end-user-apps.md): create-applicant would answer APPLICANT_EXISTS, so the corrected
  // details go by PUT /api/kyc/applicant, and the page continues as after a new applicant.
  var correcting = false;
  function startCorrection() {
    clearBanner();
    correcting = true;
    A.show("kyc-correct", false);
    if (A.$("sandbox-form")) A.show("sandbox-form", false);
    else {
      resetOnfido();
      A.show("onfido-panel", false);
    }
    A.show("applicant-correct-intro", true);
    A.show("applicant-form", true);
    A.$("applicant-firstName").focus();
  }
  if (A.$("kyc-correct")) A.$("kyc-correct").addEventListener("click", startCorrection);

  A.onSubmit(A.form("applicant-form"), async function (values) {
    // Every empty field is named at once, in the page's language, before anything is sent (not the date
    // first and the names on the next try).
    var missing = [];
    if (!(values.firstName || "").trim()) missing.push({ path: "firstName", message: t("problem.firstName"), own: true });
    if (!(values.lastName || "").trim()) missing.push({ path: "lastName", message: t("problem.lastName"), own: true });
    var dob = dateOfBirth(values);
    if (dob === "") missing.push({ path: "dob", message: t("problem.dob.required"), own: true });
    if (dob === null) missing.push({ path: "dob", message: t("problem.dob"), own: true });
    if (missing.length) return { ok: false, status: 422, error: "VALIDATION_FAILED", message: "", errors: missing };
    var body = { firstName: values.firstName, lastName: values.lastName, dob: dob };
    var res = correcting
      ? await A.api("PUT", "/api/kyc/applicant", { token: token, body: body })
      : await A.api("POST", "/api/kyc/create-applicant", { token: token, body: body });
    if (!res.ok && res.error !== "APPLICANT_EXISTS") {
      if (res.status === 401) {
        signedOut();
        return { ok: true };
      }
      // The record changed meanwhile (verified, or a check started in another tab): show where it stands.
      if (correcting && res.status === 409) {
        loadKyc();
        return { ok: true };
      }
      return res;
    }
    if (provider === "onfido") {
      startOnfido();
      return { ok: true };
    }
    return completeSandbox(values.result || "clear");
  });

  /**
   * The date of birth from its three parts (date-of-birth-field.tsx) as YYYY-MM-DD: "" while a part is
   * empty, null when the parts make no calendar date (31 February). Whether it is in the past and a
   * plausible age is the server's to say.
   * @param {Record<string, string>} values @returns {string | null}
   */
  function dateOfBirth(values) {
    var day = values["dob-day"] || "",
      month = values["dob-month"] || "",
      year = values["dob-year"] || "";
    if (!day || !month || !year) return "";
    if (!/^\d{1,2}$/.test(day) || !/^\d{1,2}$/.test(month) || !/^\d{4}$/.test(year)) return null;
    var iso = year + "-" + ("0" + month).slice(-2) + "-" + ("0" + day).slice(-2);
    var parsed = new Date(iso + "T00:00:00Z");
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === iso ? iso : null;
  }

  if (A.$("sandbox-form")) {
    A.onSubmit(A.form("sandbox-form"), function (values) {
      return completeSandbox(values.result || "clear");
    });
  }

  /** @param {string} outcome */
  async function completeSandbox(outcome) {
    var res = await A.api("POST", "/api/kyc/sandbox/complete", { token: token, body: { result: outcome } });
    if (!res.ok) {
      if (res.status === 401) {
        signedOut();
        return { ok: true };
      }
      return res;
    }
    identityJustVerified = res.data.status === "VERIFIED";
    applyKyc(res.data.status, res.data.reason);
    return { ok: true };
  }

  // Onfido (classic flow): the SDK captures the document and a selfie and uploads them to Onfido; then
  // POST /api/kyc/submit has the server create the check, whose result arrives through the provider
  // webhook, so the page polls the KYC status. The SDK script is injected only here, when the step
  // starts (never for a verified user), from the pinned URL the page carries in data-onfido-sdk.
  /** @type {OnfidoHandle | null} */
  var onfidoHandle = null;
  /** @type {Promise<boolean> | null} */
  var onfidoScript = null;
  var pollRun = 0;

  function loadOnfidoSdk() {
    if (sdkWindow.Onfido) return Promise.resolve(true);
    if (!onfidoScript) {
      onfidoScript = new Promise(function (resolve) {
        var script = document.createElement("script");
        script.src = /** @type {string} */ (root.getAttribute("data-onfido-sdk"));
        script.onload = function () {
          resolve(!!sdkWindow.Onfido);
        };
        // A failed load is not cached: the next attempt injects the script again.
        script.onerror = function () {
          script.remove();
          onfidoScript = null;
          resolve(false);
        };
        document.head.appendChild(script);
      });
    }
    return onfidoScript;
  }

  // One SDK instance at most: a retry or a new attempt after a rejection starts from a clean mount.
  function tearDownOnfido() {
    if (!onfidoHandle) return;
    var handle = onfidoHandle;
    onfidoHandle = null;
    try {
      handle.tearDown();
    } catch {
      /* already gone */
    }
  }
  function resetOnfido() {
    tearDownOnfido();
    pollRun++;
    A.text("onfido-status", "");
    A.show("onfido-start", true);
  }
  /** @param {Failure} result @param {() => void} again */
  function onfidoFailed(result, again) {
    tearDownOnfido();
    A.text("onfido-status", "");
    A.show("onfido-start", true);
    banner(result, again);
  }

  async function startOnfido() {
    clearBanner();
    tearDownOnfido();
    pollRun++;
    A.show("applicant-form", false);
    A.show("onfido-panel", true);
    A.show("onfido-start", false);
    A.text("onfido-status", t("kyc.onfido.loading"));
    var res = await A.api("GET", "/api/kyc/sdk-token", { token: token });
    if (!res.ok) {
      if (res.status === 401) return signedOut();
      return onfidoFailed(res, startOnfido);
    }
    if (!(await loadOnfidoSdk())) return onfidoFailed({ error: "NETWORK" }, startOnfido);
    if (!timer) return; // the request expired while the SDK loaded
    A.text("onfido-status", "");
    onfidoHandle = /** @type {OnfidoSdk} */ (sdkWindow.Onfido).init({
      token: res.data.token,
      containerId: "onfido-mount",
      // The face step takes a photo: the server asks for a facial_similarity_photo report.
      steps: ["welcome", "document", "face", "complete"],
      onComplete: function () {
        submitOnfido();
      },
      // An expired SDK token or a failed upload: a fresh start gets a new token.
      onError: function () {
        onfidoFailed({ error: "INTERNAL_ERROR" }, startOnfido);
      },
    });
  }
  if (A.$("onfido-start")) A.$("onfido-start").addEventListener("click", startOnfido);

  // The uploads are at Onfido; asking for the check again after a failure is safe (the server starts
  // one check at most while one is running).
  async function submitOnfido() {
    clearBanner();
    tearDownOnfido();
    A.show("onfido-start", false);
    A.text("onfido-status", t("kyc.onfido.submitted"));
    var res = await A.api("POST", "/api/kyc/submit", { token: token });
    if (!res.ok) {
      if (res.status === 401) return signedOut();
      if (res.error === "APPLICANT_REQUIRED") return loadKyc();
      A.text("onfido-status", "");
      banner(res, submitOnfido);
      // The answer failed, not necessarily the check: one may have started at Onfido all the same, and its
      // webhook will still decide. Watching the status lets the page follow it either way.
      return startPolling();
    }
    identityJustVerified = res.data.status === "VERIFIED";
    if (res.data.status !== "PENDING") return applyKyc(res.data.status, res.data.reason);
    startPolling();
  }

  function startPolling() {
    pollRun++;
    pollKyc(0, pollRun);
  }

  // Bounded polling: every 5 s for up to 10 minutes, then the user is asked to reload. A newer run
  // (a new attempt, a new status) ends the older one. A read that has not answered in 10 s is given up
  // (its late answer ignored) and the next round starts: fetch has no timeout of its own, and one request
  // lost on the way (sent, never answered, never failed) must not stop the page for good.
  /** @param {number} round @param {number} run */
  async function pollKyc(round, run) {
    if (!timer || run !== pollRun) return;
    if (round >= 120) {
      A.text("onfido-status", t("kyc.onfido.slow"));
      return;
    }
    var res = await answerWithin(10000, A.api("GET", "/api/kyc/status", { token: token }));
    if (run !== pollRun) return;
    if (res.ok && (res.data.status === "VERIFIED" || res.data.status === "REJECTED")) {
      clearBanner();
      identityJustVerified = res.data.status === "VERIFIED";
      return applyKyc(res.data.status, res.data.reason);
    }
    setTimeout(function () {
      pollKyc(round + 1, run);
    }, 5000);
  }

  // --- Decision ---------------------------------------------------------------------------------
  // An identity verified on this page after the request was read: the request is read again, for
  // whether the verified age meets it. Should that read fail, the answer step shows as before and the
  // server decides on complete.
  async function decideWithAge() {
    // A double-blind request never reads the account's age: the identity check was for the token the person asked for.
    if (doubleBlind) return getTokenAndWait();
    if (request && request.meets_age_required === null) {
      // The answer belongs to the account that asked: after "Use another account" or a sign-out
      // meanwhile it is dropped, so the next person never sees the previous one's age.
      var asked = token;
      var res = await A.api("GET", sessionPath("/request"), { token: asked, nonce: nonce });
      if (!timer || token !== asked) return;
      if (res.status === 401) return signedOut();
      if (res.ok && res.data.status === "PENDING") request = /** @type {SessionRequest} */ (res.data);
    }
    showDecision();
  }
  function showDecision() {
    progress("decision");
    showSections(["step-request", "step-decide"]);
    A.show("decide-notice", false);
    // A verified person under the age is told so before answering, and offered only what is true:
    // declining (the server still decides on complete, from the verified date of birth).
    var under = !!request && request.meets_age_required === false;
    var required = !!request?.require_passkey;
    A.text("decide-underage", under ? t("decide.underage", { merchant: merchant(), age: ageRequired() }) : "");
    A.show("decide-underage", under);
    // What an approval would share is no question for a person who can only decline: the notice says what a decline shares.
    A.show("decide-intro", !under);
    A.show("decide-shares", !under);
    A.show("decide-verified", identityJustVerified);
    identityJustVerified = false;
    // Until the account's passkeys are read, a required passkey counts as missing (see arrangeAnswer).
    arrangeAnswer(under || required);
    A.show("decide-anonymous", !!request && request.double_blind && !under);
    // The passkey offer, requirement and settings (passkeys.js) appear once the account is known; an
    // under-age person is not offered one in place of the answer they can give.
    var shown = request;
    P.refresh(token, required, !under).then(function () {
      // A verified person keeps a stock of anonymous tokens, topped up now, well before one is spent:
      // only for the thresholds their verified age is known to meet, and without a passkey prompt
      // nobody asked for (an account with a passkey fills its stock when it approves).
      if (shown && shown.meets_age_required === true && !P.needed()) T.refill(token, { provenAge: shown.age_required });
    });
  }

  // The filled button is the answer that can succeed (docs/end-user-apps.md): "Send my answer", unless the answer can
  // only be a decline (under the age) or an approval would be refused (the merchant requires a passkey
  // and this account has none: the passkey offer, or the plain reason, comes first). Decline is then
  // the filled one.
  /** @param {boolean} [blocked] whether approving is not possible now; read from the request and passkeys when left out */
  function arrangeAnswer(blocked) {
    var cannot = blocked !== undefined ? blocked : (!!request && request.meets_age_required === false) || P.blocked();
    A.show("approve", !cannot);
    // "Create a passkey" is filled only while it is the way to approve (a merchant that requires one).
    A.$("passkey-create").classList.toggle("secondary", !cannot);
    // While the passkey offer is the way forward (a merchant that requires one), its button is the filled one.
    A.$("decline").classList.toggle("secondary", !cannot || !A.$("passkey-offer").hidden);
  }
  // The passkeys' part redraws after every change (a passkey created, removed): the buttons follow.
  P.onChange(function () {
    if (!A.$("step-decide").hidden) arrangeAnswer();
  });

  // Both buttons are disabled while an answer is on its way: a second tap would be refused (409) and
  // replace the real result with "already answered".
  /** @param {boolean} consent @param {HTMLButtonElement} button */
  async function decide(consent, button) {
    A.show("decide-notice", false);
    var other = /** @type {HTMLButtonElement} */ (A.$(consent ? "decline" : "approve"));
    other.disabled = true;
    try {
      await answer(consent, button);
    } finally {
      other.disabled = false;
    }
  }
  /** @param {boolean} consent @param {HTMLButtonElement} button */
  async function answer(consent, button) {
    await A.busy(button, async function () {
      /** @type {{ consent: boolean, assertion?: unknown }} */
      var body = { consent: consent };
      // An approval from an account with a passkey carries an assertion; a browser that cannot make one
      // sends the plain answer, which the server refuses with PASSKEY_REQUIRED (explained below).
      if (consent && P.needed() && P.supported()) {
        var signed = await P.assertion(sessionId, nonce);
        if (!signed.ok) {
          if (deadLink(signed)) return;
          return A.notice("decide-notice", A.messageFor(signed), "error");
        }
        body.assertion = signed.assertion;
      }
      // A double-blind request is approved with an anonymous token from the stock, without the sign-in.
      var res =
        consent && request?.double_blind
          ? await T.redeem(sessionPath("/complete"), nonce, request.age_required)
          : await A.api("POST", sessionPath("/complete"), { token: token, nonce: nonce, body: body });
      if (res.ok) {
        if (res.data.status === "APPROVED") return result("approved", res.data);
        return result(consent ? "underage" : "declined", res.data);
      }
      if (res.status === 401) return signedOut();
      if (deadLink(res)) return;
      if (res.error === "KYC_REQUIRED") return loadKyc();
      if (res.error === "SESSION_NOT_PENDING") return loadPreview();
      if (res.error === "PASSKEY_REQUIRED") await P.refresh(token, !!request?.require_passkey);
      A.notice("decide-notice", A.messageFor(res), "error");
    });
  }
  A.$("approve").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    decide(true, /** @type {HTMLButtonElement} */ (event.currentTarget));
  });
  A.$("decline").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    decide(false, /** @type {HTMLButtonElement} */ (event.currentTarget));
  });

  // --- Double-blind ------------------------------------------------------------------------------
  // A double-blind request is answered with an anonymous age token from this device's stock
  // (age-tokens.js), never with the account (docs/double-blind.md). The page reads the preview alone:
  // whether the person can answer is whether the stock holds a token for the age asked, not anything the
  // service says about the account. No token is fetched while the request is on screen unless the
  // person chooses to, and then the answer waits a random time, shown as a countdown.
  var doubleBlind = false;
  // Whether the person chose "get a token and answer after a wait" (kept across a sign-in and an identity check).
  var wantsToken = false;
  var waitTimer = 0;
  // How the token that answered was had: "stock" (fetched earlier) or "waited" (fetched on the spot).
  var tokenPath = "stock";

  /** @param {SessionPreview} shown */
  async function showDoubleBlind(shown) {
    doubleBlind = true;
    T.holdForSession();
    request = {
      session_id: sessionId,
      age_required: shown.age_required,
      merchant_name: shown.merchant_name,
      status: "PENDING",
      expires_at: shown.expires_at,
      livemode: true,
      locale: shown.locale,
      return_url: shown.return_url,
      require_passkey: false,
      accepted_assurance: shown.accepted_assurance,
      double_blind: true,
      meets_age_required: null,
    };
    if (!timer) startCountdown();
    progress(null);
    A.show("switch-account", !!token);
    A.show("db-notice", false);
    A.show("db-waiting", false);
    A.show("db-later-text", false);
    var held = await T.usable(shown.age_required);
    A.show("db-stock", held > 0);
    A.show("db-answer", held > 0);
    A.show("db-none", held === 0);
    A.show("db-wallet", walletShown);
    var range = T.waitRange;
    A.text("db-wait-why", t("db.wait.why", { min: Math.round(range[0] / 60000), max: Math.round(range[1] / 60000) }));
    showSections(["step-intro", "step-double-blind"]);
  }

  /** Answers with a token from the stock, no account; the result says how the token was had. */
  async function sendToken() {
    var res = await T.redeem(sessionPath("/complete"), nonce, /** @type {SessionRequest} */ (request).age_required);
    if (res.ok) {
      result(res.data.status === "APPROVED" ? "approved" : "underage", res.data);
      if (res.data.status === "APPROVED")
        A.text(
          "result-text",
          t("result.approved.text", { merchant: merchant(), age: ageRequired() }) +
            " " +
            t(tokenPath === "waited" ? "db.result.waited" : "db.result.stock"),
        );
      return;
    }
    if (deadLink(res)) return;
    if (res.error === "SESSION_NOT_PENDING") return loadPreview();
    // No usable token after all (spent elsewhere, a rotated key): back to the choice.
    if (res.error === "AGE_TOKEN_UNAVAILABLE") return showDoubleBlind(/** @type {SessionPreview} */ (preview));
    A.notice("db-notice", A.messageFor(res), "error");
  }
  A.$("db-send").addEventListener("click", function (/** @type {MouseEvent} */ event) {
    A.busy(/** @type {HTMLButtonElement} */ (event.currentTarget), sendToken);
  });

  // "Get a token and answer after a random wait": the person's own choice, made knowing the timing link.
  A.$("db-wait").addEventListener("click", function () {
    wantsToken = true;
    if (!token) {
      showSections(["step-intro", "step-account"]);
      return A.notice("account-notice", t("db.signin"), "info");
    }
    getTokenAndWait();
  });
  function afterDoubleBlindSignIn() {
    A.show("switch-account", true);
    if (wantsToken) return getTokenAndWait();
    showDoubleBlind(/** @type {SessionPreview} */ (preview));
  }
  async function getTokenAndWait() {
    if (!wantsToken) return showDoubleBlind(/** @type {SessionPreview} */ (preview));
    showSections(["step-intro", "step-double-blind"]);
    A.show("db-none", false);
    A.show("db-notice", false);
    var refused = /** @type {(Failure & { status: number }) | undefined} */ (
      await T.fillNow(/** @type {string} */ (token), /** @type {SessionRequest} */ (request).age_required)
    );
    if (refused) {
      if (refused.status === 401) return signedOut();
      // The identity check first (account requests only); after it the choice stands and this runs again.
      if (refused.error === "KYC_REQUIRED") return loadKyc();
      wantsToken = false;
      A.show("db-none", true);
      var words =
        refused.error === "AGE_TOKEN_NOT_ALLOWED"
          ? t("db.underage")
          : refused.error === "PASSKEY_REQUIRED"
            ? t("db.passkey")
            : A.messageFor(refused);
      return A.notice("db-notice", words, "error");
    }
    wantsToken = false;
    tokenPath = "waited";
    // Never past the request's life: the wait ends at least 30 s before it expires.
    var left = Date.parse(/** @type {SessionRequest} */ (request).expires_at) - serverNow() - 30000;
    waitThenSend(Date.now() + Math.max(0, Math.min(T.waitMs(), left)));
  }
  /** @param {number} until */
  function waitThenSend(until) {
    A.show("db-waiting", true);
    A.show("db-answer", false);
    A.show("db-stock", false);
    function step() {
      var left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      A.text("db-countdown", t("db.waiting", { time: Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2) }));
      if (left > 0) return;
      clearInterval(waitTimer);
      waitTimer = 0;
      A.show("db-waiting", false);
      sendToken();
    }
    waitTimer = setInterval(step, 1000);
    step();
  }
  A.$("db-cancel").addEventListener("click", function () {
    if (waitTimer) {
      clearInterval(waitTimer);
      waitTimer = 0;
    }
    tokenPath = "stock";
    showDoubleBlind(/** @type {SessionPreview} */ (preview));
  });
  A.$("db-wallet").addEventListener("click", function () {
    A.$("wallet-use").focus();
  });
  A.$("db-later").addEventListener("click", function () {
    A.show("db-none", false);
    A.text("db-later-text", t("db.later.text", { time: when(/** @type {SessionRequest} */ (request).expires_at) }));
    A.show("db-later-text", true);
  });

  if (!/^ses_[A-Za-z0-9_-]{24}$/.test(sessionId) || !nonce) {
    result("invalid");
  } else {
    loadPreview();
  }
})();
