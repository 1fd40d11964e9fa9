// Shared client code of the apps, served as /assets/common.js: the JSON API client, token storage,
// and form helpers. Plain ES2020 in a string (no build step); no template literals inside, so the
// TypeScript string stays literal. Everything is written to the page with textContent, never as HTML.
(function () {
  "use strict";

  var MESSAGES = {
    NETWORK: "We could not reach the service. Check your connection and try again.",
    INVALID_CREDENTIALS: "That email and password do not match an account.",
    EMAIL_TAKEN: "An account already uses this email address.",
    RATE_LIMITED: "Too many attempts. Wait a minute, then try again.",
    UNAUTHORIZED: "Your sign-in has expired. Please sign in again.",
    INTERNAL_ERROR: "Something went wrong on our side. Please try again in a moment.",
    VALIDATION_FAILED: "Please check the highlighted fields.",
    INVALID_TOKEN: "This link is no longer valid: it was already used or has expired."
  };

  function messageFor(result) {
    return MESSAGES[result.error] || result.message || MESSAGES.INTERNAL_ERROR;
  }

  // Calls the public JSON API. Never throws: a network failure is { ok: false, error: "NETWORK" }.
  async function api(method, path, options) {
    options = options || {};
    var headers = { accept: options.accept || "application/json" };
    if (options.token) headers.authorization = "Bearer " + options.token;
    var init = { method: method, headers: headers, credentials: "omit", cache: "no-store", redirect: "error" };
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(options.body);
    }
    var response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      return { ok: false, status: 0, error: "NETWORK", message: MESSAGES.NETWORK, errors: [] };
    }
    if (options.raw && response.ok) return { ok: true, status: response.status, response: response };
    var body = null;
    if (response.status !== 204) {
      try { body = await response.json(); } catch (e) { body = null; }
    }
    // date: the server's Date header, for pages that must not trust the device clock.
    if (response.ok) return { ok: true, status: response.status, data: body && body.data, message: body && body.message, date: response.headers.get("date") };
    return {
      ok: false,
      status: response.status,
      error: (body && body.error) || "INTERNAL_ERROR",
      message: (body && body.message) || MESSAGES.INTERNAL_ERROR,
      errors: (body && Array.isArray(body.errors)) ? body.errors : []
    };
  }

  // The account JWT lives in sessionStorage: gone when the tab closes, never in a URL or a cookie.
  function tokenStore(key) {
    return {
      get: function () { try { return sessionStorage.getItem(key); } catch (e) { return null; } },
      set: function (value) { try { sessionStorage.setItem(key, value); } catch (e) { /* private mode: memory only */ } },
      clear: function () { try { sessionStorage.removeItem(key); } catch (e) { /* nothing stored */ } }
    };
  }

  function $(id) { return document.getElementById(id); }
  function show(target, visible) {
    var el = typeof target === "string" ? $(target) : target;
    if (el) el.hidden = !visible;
  }
  function text(target, value) {
    var el = typeof target === "string" ? $(target) : target;
    if (el) el.textContent = value == null ? "" : String(value);
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else if (name === "className") node.className = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { if (child != null) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child); });
    return node;
  }

  // A notice element: kind is error | info | ok | warn; an empty message hides it.
  function notice(target, message, kind) {
    var box = typeof target === "string" ? $(target) : target;
    if (!box) return;
    box.className = "notice " + (kind || "error");
    box.textContent = message || "";
    box.hidden = !message;
    box.setAttribute("role", kind === "error" ? "alert" : "status");
  }

  function values(form) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.type === "submit") return;
      var value = typeof input.value === "string" ? input.value : "";
      out[input.name] = input.type === "password" ? value : value.trim();
    });
    return out;
  }

  function clearFieldErrors(form) {
    Array.prototype.forEach.call(form.querySelectorAll("[data-error-for]"), function (p) { p.textContent = ""; p.hidden = true; });
    Array.prototype.forEach.call(form.elements, function (input) { input.removeAttribute("aria-invalid"); });
  }

  // Puts each 422 problem under its field (path "address.country" matches name "address.country" or
  // "country"); returns the problems that no field could show.
  function showFieldErrors(form, errors) {
    var unplaced = [];
    (errors || []).forEach(function (problem) {
      var path = String(problem.path || "");
      var last = path.split(".").pop();
      var slot = form.querySelector('[data-error-for="' + CSS.escape(path) + '"]') || form.querySelector('[data-error-for="' + CSS.escape(last) + '"]');
      if (!slot) { unplaced.push(problem.message); return; }
      slot.textContent = problem.message;
      slot.hidden = false;
      var input = form.elements.namedItem(slot.getAttribute("data-error-for"));
      if (input && input.setAttribute) input.setAttribute("aria-invalid", "true");
    });
    var first = form.querySelector('[aria-invalid="true"]');
    if (first) first.focus();
    return unplaced;
  }

  // Shows an API failure on a form: field problems under their fields, the rest in the form's notice.
  function showFailure(form, result) {
    var box = form.querySelector(".notice");
    var message = messageFor(result);
    if (result.error === "VALIDATION_FAILED" && result.errors.length) {
      var unplaced = showFieldErrors(form, result.errors);
      message = unplaced.join(" ");
    }
    if (box) notice(box, message, "error");
  }

  async function busy(button, work) {
    if (!button) return work();
    var label = button.textContent;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try { return await work(); } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.textContent = label;
    }
  }

  // Submits a form through handler(values) -> api result; handles busy state and errors.
  function onSubmit(form, handler) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearFieldErrors(form);
      var box = form.querySelector(".notice");
      if (box) notice(box, "", "error");
      var button = form.querySelector('[type="submit"]');
      busy(button, async function () {
        var result = await handler(values(form), form);
        if (result && result.ok === false) showFailure(form, result);
      });
    });
  }

  function tabs(container) {
    var buttons = Array.prototype.slice.call(container.querySelectorAll('[role="tab"]'));
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
      button.addEventListener("click", function () { select(button, false); });
      button.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        select(buttons[(index + step + buttons.length) % buttons.length], true);
      });
    });
    return { select: function (id) { var b = buttons.find(function (x) { return x.id === id; }); if (b) select(b, false); } };
  }

  function formatDateTime(iso) {
    if (!iso) return "";
    var date = new Date(iso);
    if (isNaN(date.getTime())) return iso;
    return date.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  }

  window.AVS = {
    api: api, messageFor: messageFor, tokenStore: tokenStore, $: $, show: show, text: text, el: el, notice: notice,
    values: values, onSubmit: onSubmit, showFailure: showFailure, clearFieldErrors: clearFieldErrors, busy: busy,
    tabs: tabs, formatDateTime: formatDateTime
  };
})();
