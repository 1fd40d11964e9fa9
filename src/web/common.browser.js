// @ts-check
// Shared client code of the apps, served as /assets/common.js: the JSON API client, token storage,
// and form helpers. Plain ES2020, served as written and type-checked from its JSDoc
// (src/web/assets/tsconfig.json). Everything is written to the page with textContent, never as HTML. The top-level AVS
// is the one global the other scripts read (as window.AVS), its type included.

/**
 * A problem of a 422 response: the field's path and what is wrong with it (own: a message the page
 * wrote itself, already in its language).
 * @typedef {{ path?: string, message: string, own?: boolean }} Problem
 * @typedef {{ ok: true, status: number, data?: any, message?: string, date?: string | null, response?: Response }} ApiSuccess
 * @typedef {{ ok: false, status: number, error: string, message: string, errors: Problem[] }} ApiFailure
 * @typedef {ApiSuccess | ApiFailure} ApiResult
 * @typedef {{ token?: string | null, body?: unknown, accept?: string, raw?: boolean, nonce?: string }} ApiOptions
 * @typedef {{ error?: string, message?: string }} Failure
 * @typedef {string | HTMLElement | null} Target
 * A page's own words for a form's failures, in place of the API's: fields by field name (or path),
 * codes by error code. The API's validator text ("Too small: expected string…") is for developers.
 * @typedef {{ fields?: Record<string, string>, codes?: Record<string, string> }} Wording
 */

// biome-ignore lint/correctness/noUnusedVariables: a classic script\'s global, read by the pages\' other scripts
var AVS = (function () {
  "use strict";

  /** @type {Record<string, string>} */
  var MESSAGES = {
    NETWORK: "We could not reach the service. Check your connection and try again.",
    INVALID_CREDENTIALS: "That email and password do not match an account.",
    EMAIL_TAKEN: "An account already uses this email address.",
    RATE_LIMITED: "Too many attempts. Wait a minute, then try again.",
    UNAUTHORIZED: "Your sign-in has expired. Please sign in again.",
    INTERNAL_ERROR: "Something went wrong on our side. Please try again in a moment.",
    VALIDATION_FAILED: "Please check the highlighted fields.",
    INVALID_TOKEN: "This link is no longer valid: it was already used or has expired.",
  };

  // The end user's pages carry their language's catalogue as data (#page-texts, src/web/i18n): whole
  // sentences with {named} values filled in, and error.CODE texts that replace MESSAGES. A page without
  // one (the console, in English) gets MESSAGES, and t() gives the key back.
  /** @type {Record<string, string> | null} */
  var pageTexts = null;
  function texts() {
    if (!pageTexts) {
      var data = document.getElementById("page-texts");
      try {
        pageTexts = data ? JSON.parse(data.textContent || "{}") : {};
      } catch {
        pageTexts = {};
      }
    }
    return /** @type {Record<string, string>} */ (pageTexts);
  }
  /** @param {string} key @param {Record<string, string | number>} [values] */
  function t(key, values) {
    return (texts()[key] || key).replace(/\{(\w+)\}/g, function (all, name) {
      return values && name in values ? String(values[name]) : all;
    });
  }

  /** @param {Failure} result @param {Wording} [wording] */
  function messageFor(result, wording) {
    var code = result.error || "";
    var own = wording?.codes && code ? wording.codes[code] : undefined;
    return (
      own ||
      (code && (texts()["error." + code] || MESSAGES[code])) ||
      result.message ||
      texts()["error.INTERNAL_ERROR"] ||
      MESSAGES.INTERNAL_ERROR
    );
  }

  // Calls the public JSON API. Never throws: a network failure is { ok: false, error: "NETWORK" }.
  /**
   * @param {string} method
   * @param {string} path
   * @param {ApiOptions} [options]
   * @returns {Promise<ApiResult>}
   */
  async function api(method, path, options) {
    options = options || {};
    /** @type {Record<string, string>} */
    var headers = { accept: options.accept || "application/json" };
    if (options.token) headers.authorization = "Bearer " + options.token;
    // A session nonce travels in a header, never in the URL (which access logs record).
    if (options.nonce) headers["x-session-nonce"] = options.nonce;
    /** @type {RequestInit} */
    var init = { method: method, headers: headers, credentials: "omit", cache: "no-store", redirect: "error" };
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(options.body);
    }
    var response;
    try {
      response = await fetch(path, init);
    } catch {
      return { ok: false, status: 0, error: "NETWORK", message: MESSAGES.NETWORK, errors: [] };
    }
    if (options.raw && response.ok) return { ok: true, status: response.status, response: response };
    /** @type {any} */
    var body = null;
    if (response.status !== 204) {
      try {
        body = await response.json();
      } catch {
        body = null;
      }
    }
    // date: the server's Date header, for pages that must not trust the device clock.
    if (response.ok)
      return {
        ok: true,
        status: response.status,
        data: body?.data,
        message: body?.message,
        date: response.headers.get("date"),
      };
    return {
      ok: false,
      status: response.status,
      error: body?.error || "INTERNAL_ERROR",
      message: body?.message || MESSAGES.INTERNAL_ERROR,
      errors: body && Array.isArray(body.errors) ? body.errors : [],
    };
  }

  // The account JWT lives in sessionStorage: gone when the tab closes, never in a URL or a cookie.
  /** @param {string} key */
  function tokenStore(key) {
    return {
      get: function () {
        try {
          return sessionStorage.getItem(key);
        } catch {
          return null;
        }
      },
      set: function (/** @type {string} */ value) {
        try {
          sessionStorage.setItem(key, value);
        } catch {
          /* private mode: memory only */
        }
      },
      clear: function () {
        try {
          sessionStorage.removeItem(key);
        } catch {
          /* nothing stored */
        }
      },
    };
  }

  /**
   * An element of the page's own markup, which the server renders with every id its script uses
   * (form and input below name the kind a caller relies on).
   * @param {string} id
   * @returns {HTMLElement}
   */
  function $(id) {
    return /** @type {HTMLElement} */ (document.getElementById(id));
  }
  /** @param {string} id */
  function form(id) {
    return /** @type {HTMLFormElement} */ ($(id));
  }
  /** A text input (or the like) of the page, for its value. @param {string} id */
  function input(id) {
    return /** @type {HTMLInputElement} */ ($(id));
  }
  /** @param {Target} target @param {boolean} visible */
  function show(target, visible) {
    var el = typeof target === "string" ? $(target) : target;
    if (el) el.hidden = !visible;
  }
  /** @param {Target} target @param {unknown} value */
  function text(target, value) {
    var el = typeof target === "string" ? $(target) : target;
    if (el) el.textContent = value == null ? "" : String(value);
  }
  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, string>} [attrs] text and className set those properties; the rest are attributes
   * @param {(Node | string | null | undefined)[]} [children]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    var attributes = attrs || {};
    Object.keys(attributes).forEach(function (name) {
      var value = attributes[name];
      if (name === "text") node.textContent = value;
      else if (name === "className") node.className = value;
      else node.setAttribute(name, value);
    });
    (children || []).forEach(function (child) {
      if (child != null) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  // A notice element: kind is error | info | ok | warn; an empty message hides it.
  /** @param {Target} target @param {string | null | undefined} message @param {"error" | "info" | "ok" | "warn"} [kind] */
  function notice(target, message, kind) {
    var box = typeof target === "string" ? $(target) : target;
    if (!box) return;
    box.className = "notice " + (kind || "error");
    box.textContent = message || "";
    box.hidden = !message;
    box.setAttribute("role", kind === "error" ? "alert" : "status");
  }

  /**
   * The named fields of a form, trimmed (passwords as typed).
   * @param {HTMLFormElement} form
   * @returns {Record<string, string>}
   */
  function values(form) {
    /** @type {Record<string, string>} */
    var out = {};
    Array.prototype.forEach.call(form.elements, function (/** @type {HTMLInputElement} */ input) {
      if (!input.name || input.type === "submit") return;
      var value = typeof input.value === "string" ? input.value : "";
      out[input.name] = input.type === "password" ? value : value.trim();
    });
    return out;
  }

  /** @param {HTMLFormElement} form */
  function clearFieldErrors(form) {
    form.querySelectorAll("[data-error-for]").forEach(function (p) {
      p.textContent = "";
      /** @type {HTMLElement} */
      (p).hidden = true;
    });
    Array.prototype.forEach.call(form.elements, function (/** @type {Element} */ input) {
      input.removeAttribute("aria-invalid");
    });
  }

  // Puts each 422 problem under its field (path "address.country" matches name "address.country" or
  // "country"; "allowedCallbackOrigins.0" matches "allowedCallbackOrigins"), in the page's words for that field when it has them;
  // returns the problems that no field could show.
  /** @param {HTMLFormElement} form @param {Problem[]} errors @param {Record<string, string>} [fields] */
  function showFieldErrors(form, errors, fields) {
    /** @type {string[]} */
    var unplaced = [];
    (errors || []).forEach(function (problem) {
      var path = String(problem.path || "");
      var names = [path, path.split(".").pop() || "", path.split(".")[0] || ""];
      var own =
        fields &&
        names
          .map(function (name) {
            return fields[name];
          })
          .filter(Boolean)[0];
      var message = own || problem.message;
      /** @type {HTMLElement | null} */
      var slot =
        names
          .map(function (name) {
            return /** @type {HTMLElement | null} */ (form.querySelector('[data-error-for="' + CSS.escape(name) + '"]'));
          })
          .filter(Boolean)[0] || null;
      // A page with a catalogue says what the field needs in its own language (problem.<field>).
      if (!own && !problem.own && texts()["problem." + names[1]]) message = texts()["problem." + names[1]];
      if (!slot) {
        if (unplaced.indexOf(message) < 0) unplaced.push(message);
        return;
      }
      slot.textContent = message;
      slot.hidden = false;
      var input = form.elements.namedItem(slot.getAttribute("data-error-for") || "");
      // A field in parts (a fieldset named after the path: /verify's date of birth): each part is marked,
      // and the first of them takes the focus below.
      if (input instanceof HTMLFieldSetElement)
        input.querySelectorAll("input, select").forEach(function (part) {
          part.setAttribute("aria-invalid", "true");
        });
      else if (input && "setAttribute" in input) input.setAttribute("aria-invalid", "true");
    });
    /** @type {HTMLElement | null} */
    var first = form.querySelector('[aria-invalid="true"]');
    if (first) first.focus();
    return unplaced;
  }

  // Shows an API failure on a form: field problems under their fields, the rest in the form's notice.
  /** @param {HTMLFormElement} form @param {Failure & { errors?: Problem[] }} result @param {Wording} [wording] */
  function showFailure(form, result, wording) {
    /** @type {HTMLElement | null} */
    var box = form.querySelector(".notice");
    var message = messageFor(result, wording);
    if (result.error === "VALIDATION_FAILED" && result.errors && result.errors.length) {
      var unplaced = showFieldErrors(form, result.errors, wording?.fields);
      message = unplaced.join(" ");
    }
    if (box) notice(box, message, "error");
  }

  /** How long a request runs before an opted-in button's label says it is being sent. */
  var BUSY_WORDS_AFTER_MS = 600;

  /**
   * Runs work with the button disabled and marked busy (aria-busy), restoring its label after.
   * @template T
   * @param {HTMLButtonElement | null} button
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  async function busy(button, work) {
    if (!button) return work();
    var label = button.textContent;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    // A page that opts in (data-busy-words on an ancestor, the console's "Sending…") says so in words once
    // the wait is noticeable; a quick answer never flickers the label.
    var holder = button.closest("[data-busy-words]");
    var words = holder?.getAttribute("data-busy-words");
    var timer = words
      ? setTimeout(function () {
          button.textContent = /** @type {string} */ (words);
        }, BUSY_WORDS_AFTER_MS)
      : 0;
    try {
      return await work();
    } finally {
      clearTimeout(timer);
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.textContent = label;
    }
  }

  // Submits a form through handler(values) -> api result; handles busy state and errors.
  /**
   * @param {HTMLFormElement} form
   * @param {(values: Record<string, string>, form: HTMLFormElement) => Promise<{ ok: boolean } | ApiResult | void>} handler
   * @param {Wording} [wording]
   */
  function onSubmit(form, handler, wording) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearFieldErrors(form);
      /** @type {HTMLElement | null} */
      var box = form.querySelector(".notice");
      if (box) notice(box, "", "error");
      /** @type {HTMLButtonElement | null} */
      var button = form.querySelector('[type="submit"]');
      busy(button, async function () {
        var result = await handler(values(form), form);
        if (result && result.ok === false) showFailure(form, /** @type {Failure} */ (result), wording);
      });
    });
  }

  /** @param {HTMLElement} container */
  function tabs(container) {
    /** @type {HTMLElement[]} */
    var buttons = Array.prototype.slice.call(container.querySelectorAll('[role="tab"]'));
    /** @param {HTMLElement} button @param {boolean} focus */
    function select(button, focus) {
      buttons.forEach(function (b) {
        var selected = b === button;
        b.setAttribute("aria-selected", selected ? "true" : "false");
        b.tabIndex = selected ? 0 : -1;
        show(b.getAttribute("aria-controls"), selected);
      });
      if (focus) button.focus();
    }
    buttons.forEach(function (button, index) {
      button.addEventListener("click", function () {
        select(button, false);
      });
      button.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        var next = buttons[(index + step + buttons.length) % buttons.length];
        if (next) select(next, true);
      });
    });
    return {
      select: function (/** @type {string} */ id) {
        var b = buttons.find(function (x) {
          return x.id === id;
        });
        if (b) select(b, false);
      },
    };
  }

  // The one date format of the apps. The end user's pages pass their language; the console the browser's.
  /** @param {string | null | undefined} iso @param {string} [locale] */
  function formatDateTime(iso, locale) {
    if (!iso) return "";
    var date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    return date.toLocaleString(locale, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  }

  return {
    api: api,
    messageFor: messageFor,
    tokenStore: tokenStore,
    $: $,
    form: form,
    input: input,
    show: show,
    text: text,
    el: el,
    notice: notice,
    values: values,
    onSubmit: onSubmit,
    showFailure: showFailure,
    clearFieldErrors: clearFieldErrors,
    busy: busy,
    tabs: tabs,
    formatDateTime: formatDateTime,
    t: t,
  };
})();
