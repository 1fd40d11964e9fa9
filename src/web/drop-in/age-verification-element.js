// @ts-check
// The merchant's drop-in (docs/drop-in.md): <age-verification url="…verification_url…">, one
// element on the checkout page. On a wide screen it shows the link as a QR code to scan with a phone, and
// a link to continue on this device; on a narrow one, one button. It reads the session's status with the
// link's own nonce (GET …/preview, CORS-enabled for this) and fires `age-verification-status` when the
// session is answered. It carries no API key and reads nothing but the status: the merchant's server
// confirms the answer (poll or callback), never this event.
//
// Written for a merchant's strict CSP: no inline script or style, no innerHTML, no image; the QR code is
// SVG built node by node (../qr-code.js), the styles a constructed stylesheet. Bundled with its QR encoder (uqr) into
// age-verification.browser.js by `npm run drop-in` (test/node/drop-in-bundle.test.ts), as a classic
// script (one function run at once, nothing exported): it works from `<script src>` and from
// `<script type="module" src>` alike. A page whose policy blocks the status reads gets the link and the
// reason, not a QR code waiting for ever.
import { qrSvg } from "../qr-code.js";

/** How often the status is read while the page is visible. The preview shares a limit of 120 calls a
 * minute per client address with the other session-link routes (docs/limits.md): 1.5 s is 40 a minute,
 * which leaves room for the phone's own calls behind the same home router. */
const POLL_INTERVAL_MS = 1500;
/** After a failed read (rate-limited, offline, server error) the interval doubles up to this. */
const MAX_BACKOFF_MS = 15000;

const TEXTS = {
  en: {
    scan: "Scan with your phone to verify your age",
    qr: "QR code of your age-check link",
    other: "Or continue on this device",
    button: "Verify my age",
    waiting: "Waiting for your answer…",
    APPROVED: "Age verified",
    DENIED: "Age not verified",
    EXPIRED: "This age check expired. Reload the page to start again.",
    invalid: "This age-check link is not valid.",
    test_APPROVED: "Test session: approved (nothing was verified)",
    test_DENIED: "Test session: not approved (nothing was verified)",
    blocked: "This page cannot follow the answer here. Continue with the link; the website checks your answer itself.",
  },
  fr: {
    scan: "Scannez avec votre téléphone pour vérifier votre âge",
    qr: "Code QR de votre lien de vérification d'âge",
    other: "Ou continuez sur cet appareil",
    button: "Vérifier mon âge",
    waiting: "En attente de votre réponse…",
    APPROVED: "Âge vérifié",
    DENIED: "Âge non vérifié",
    EXPIRED: "Cette vérification d'âge a expiré. Rechargez la page pour recommencer.",
    invalid: "Ce lien de vérification d'âge n'est pas valide.",
    test_APPROVED: "Session de test : approuvée (rien n'a été vérifié)",
    test_DENIED: "Session de test : non approuvée (rien n'a été vérifié)",
    blocked: "Cette page ne peut pas suivre la réponse ici. Continuez avec le lien ; le site vérifie votre réponse lui-même.",
  },
  de: {
    scan: "Scannen Sie mit Ihrem Telefon, um Ihr Alter zu bestätigen",
    qr: "QR-Code Ihres Links zur Altersprüfung",
    other: "Oder auf diesem Gerät fortfahren",
    button: "Mein Alter bestätigen",
    waiting: "Warten auf Ihre Antwort …",
    APPROVED: "Alter bestätigt",
    DENIED: "Alter nicht bestätigt",
    EXPIRED: "Diese Altersprüfung ist abgelaufen. Laden Sie die Seite neu, um neu zu beginnen.",
    invalid: "Dieser Link zur Altersprüfung ist ungültig.",
    test_APPROVED: "Testsitzung: bestätigt (nichts wurde geprüft)",
    test_DENIED: "Testsitzung: nicht bestätigt (nichts wurde geprüft)",
    blocked: "Diese Seite kann die Antwort hier nicht verfolgen. Fahren Sie mit dem Link fort; die Website prüft Ihre Antwort selbst.",
  },
  es: {
    scan: "Escanee con su teléfono para verificar su edad",
    qr: "Código QR de su enlace de verificación de edad",
    other: "O continúe en este dispositivo",
    button: "Verificar mi edad",
    waiting: "Esperando su respuesta…",
    APPROVED: "Edad verificada",
    DENIED: "Edad no verificada",
    EXPIRED: "Esta verificación de edad ha caducado. Recargue la página para empezar de nuevo.",
    invalid: "Este enlace de verificación de edad no es válido.",
    test_APPROVED: "Sesión de prueba: aprobada (no se verificó nada)",
    test_DENIED: "Sesión de prueba: no aprobada (no se verificó nada)",
    blocked: "Esta página no puede seguir la respuesta aquí. Continúe con el enlace; el sitio comprueba su respuesta por sí mismo.",
  },
  it: {
    scan: "Scansiona con il telefono per verificare la tua età",
    qr: "Codice QR del tuo link di verifica dell'età",
    other: "Oppure continua su questo dispositivo",
    button: "Verifica la mia età",
    waiting: "In attesa della tua risposta…",
    APPROVED: "Età verificata",
    DENIED: "Età non verificata",
    EXPIRED: "Questa verifica dell'età è scaduta. Ricarica la pagina per ricominciare.",
    invalid: "Questo link di verifica dell'età non è valido.",
    test_APPROVED: "Sessione di prova: approvata (nulla è stato verificato)",
    test_DENIED: "Sessione di prova: non approvata (nulla è stato verificato)",
    blocked: "Questa pagina non può seguire la risposta qui. Continua con il link; il sito verifica la tua risposta da solo.",
  },
};

/** @typedef {keyof typeof TEXTS} Language */
/** @typedef {"PENDING" | "APPROVED" | "DENIED" | "EXPIRED"} Status */

// Wide screens get the QR code; narrow ones (a phone) the button alone. Colours are fixed dark on light
// so the code scans whatever the merchant's theme; everything else inherits the page's font.
const CSS = `
:host { display: block; font: inherit; color: #1a1a1a; }
.panel { display: grid; gap: 0.75rem; justify-items: center; text-align: center; padding: 1rem; border: 1px solid #8a8a8a; border-radius: 0.5rem; background: #fff; }
.content:empty { display: none; }
.qr-part { display: none; gap: 0.5rem; justify-items: center; }
.button-part { display: block; }
@media (min-width: 40rem) { .qr-part { display: grid; } .button-part { display: none; } }
svg { width: 12rem; height: 12rem; }
p { margin: 0; }
.lead { font-weight: 600; }
a { color: #0b57d0; }
.button { display: inline-block; padding: 0.75rem 1.5rem; border-radius: 0.375rem; background: #0b57d0; color: #fff; font-weight: 600; text-decoration: none; }
a:focus-visible { outline: 3px solid #1a1a1a; outline-offset: 2px; }
.result { font-weight: 600; }
.result[data-status="APPROVED"] { color: #0a6b2d; }
.result[data-status="DENIED"], .result[data-status="EXPIRED"], .result[data-status="INVALID"] { color: #a11a1a; }
.result[data-status="BLOCKED"] { font-weight: 400; }
`;

/** @type {CSSStyleSheet | null} */
let sheet = null;

/** The session's id, nonce and preview address from its verification_url; null for anything else. */
function parseLink(/** @type {string | null} */ url) {
  if (!url) return null;
  try {
    const link = new URL(url, document.baseURI);
    const sessionId = link.searchParams.get("session_id");
    const nonce = link.searchParams.get("nonce");
    if ((link.protocol !== "https:" && link.protocol !== "http:") || !sessionId || !nonce) return null;
    return {
      href: link.href,
      sessionId,
      nonce,
      preview: `${link.origin}/api/age-verification/session/${encodeURIComponent(sessionId)}/preview`,
    };
  } catch {
    return null;
  }
}

/** The element's language: its own lang, the nearest ancestor's, then the browser's; English otherwise. */
function languageOf(/** @type {HTMLElement} */ element) {
  const asked = [element.closest("[lang]")?.getAttribute("lang") ?? "", ...navigator.languages];
  for (const tag of asked) {
    const base = tag.toLowerCase().split("-")[0];
    if (base && base in TEXTS) return /** @type {Language} */ (base);
  }
  return "en";
}

/** Creates an element with a class and text, written as text (never HTML). */
function node(/** @type {string} */ tag, /** @type {string} */ className, /** @type {string} */ text = "") {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
}

class AgeVerificationElement extends HTMLElement {
  static observedAttributes = ["url", "lang"];

  /** @type {Status | "INVALID" | "BLOCKED"} */
  #status = "PENDING";
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #timer = undefined;
  #failures = 0;
  /** @type {AbortController | null} */
  #reading = null;
  /** Whether the session was opened with a test key (the preview's livemode false): its answer is no verification. */
  #test = false;
  #content = node("div", "content");
  #result = node("p", "result");
  #onVisibility = () => {
    if (document.visibilityState === "visible") this.#schedule(0);
    else this.#stop();
  };
  // The page's Content-Security-Policy refused the status read (its connect-src lacks the service): no
  // answer can reach this element, so it shows the link with the reason, and tells the developer why.
  #onViolation = (/** @type {SecurityPolicyViolationEvent} */ event) => {
    const link = parseLink(this.getAttribute("url"));
    if (!link || this.#status !== "PENDING" || !event.blockedURI.startsWith(new URL(link.preview).origin)) return;
    console.error(
      `<age-verification>: this page's Content-Security-Policy blocks ${new URL(link.preview).origin} (${event.effectiveDirective}). Add it to connect-src (docs/drop-in.md); until then the element shows the link alone.`,
    );
    this.#stop();
    this.#status = "BLOCKED";
    this.#render();
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
    }
    root.adoptedStyleSheets = [sheet];
    // The live region is created once and only its text changes: a screen reader announces a change in
    // a region it already knows, not a region inserted with its text.
    const panel = node("div", "panel");
    panel.setAttribute("part", "panel");
    this.#result.setAttribute("role", "status");
    panel.append(this.#content, this.#result);
    root.append(panel);
  }

  /** The session's status as last read: PENDING, APPROVED, DENIED or EXPIRED (or INVALID for a bad link). */
  get status() {
    return this.#status;
  }

  connectedCallback() {
    document.addEventListener("visibilitychange", this.#onVisibility);
    document.addEventListener("securitypolicyviolation", this.#onViolation);
    this.#start();
  }

  disconnectedCallback() {
    document.removeEventListener("visibilitychange", this.#onVisibility);
    document.removeEventListener("securitypolicyviolation", this.#onViolation);
    this.#stop();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#start();
  }

  #start() {
    this.#stop();
    this.#status = parseLink(this.getAttribute("url")) ? "PENDING" : "INVALID";
    this.#failures = 0;
    this.#render();
    if (this.#status === "PENDING") this.#schedule(0);
  }

  #stop() {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#reading?.abort();
    this.#reading = null;
  }

  #schedule(/** @type {number} */ delay) {
    clearTimeout(this.#timer);
    if (this.#status !== "PENDING" || document.visibilityState !== "visible") return;
    this.#timer = setTimeout(() => void this.#read(), delay);
  }

  // One read of the status. The nonce goes in a header, never in the address (it would reach logs).
  async #read() {
    const link = parseLink(this.getAttribute("url"));
    if (!link || this.#status !== "PENDING") return;
    this.#reading?.abort();
    const reading = (this.#reading = new AbortController());
    let next = POLL_INTERVAL_MS;
    try {
      const response = await fetch(link.preview, {
        headers: { "x-session-nonce": link.nonce },
        credentials: "omit",
        cache: "no-store",
        referrerPolicy: "no-referrer",
        signal: reading.signal,
      });
      // Unknown or mistyped (404), or withdrawn by the merchant that made it (410): no read will change it.
      if (response.status === 404 || response.status === 410) return this.#settle("INVALID");
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = /** @type {{ data?: { status?: Status, livemode?: boolean } }} */ (await response.json()).data;
      const status = data?.status;
      this.#test = data?.livemode === false;
      this.#failures = 0;
      if (status && status !== "PENDING") return this.#settle(status);
    } catch {
      if (reading.signal.aborted) return;
      // Rate-limited, offline or a server error: back off, then try again.
      this.#failures += 1;
      next = Math.min(POLL_INTERVAL_MS * 2 ** this.#failures, MAX_BACKOFF_MS);
    }
    this.#schedule(next);
  }

  #settle(/** @type {Status | "INVALID" | "BLOCKED"} */ status) {
    this.#stop();
    this.#status = status;
    this.#render();
    const link = parseLink(this.getAttribute("url"));
    this.dispatchEvent(
      new CustomEvent("age-verification-status", { bubbles: true, composed: true, detail: { status, sessionId: link?.sessionId ?? null } }),
    );
  }

  #render() {
    const language = languageOf(this);
    const texts = TEXTS[language];
    /** @type {HTMLElement} */ (this.#content.parentElement).lang = language;
    const link = parseLink(this.getAttribute("url"));
    if (this.#status === "PENDING" && link) {
      const qrPart = node("div", "qr-part");
      const anchor = /** @type {HTMLAnchorElement} */ (node("a", "link", texts.other));
      anchor.href = link.href;
      qrPart.append(qrSvg(link.href, texts.qr), node("p", "lead", texts.scan), anchor, node("p", "waiting", texts.waiting));
      const buttonPart = node("div", "button-part");
      const button = /** @type {HTMLAnchorElement} */ (node("a", "button", texts.button));
      button.href = link.href;
      buttonPart.append(button);
      this.#content.replaceChildren(qrPart, buttonPart);
      delete this.#result.dataset.status;
      this.#result.textContent = "";
    } else if (this.#status === "BLOCKED" && link) {
      const button = /** @type {HTMLAnchorElement} */ (node("a", "button", texts.button));
      button.href = link.href;
      this.#content.replaceChildren(button);
      this.#result.dataset.status = "BLOCKED";
      this.#result.textContent = texts.blocked;
    } else {
      this.#content.replaceChildren();
      this.#result.dataset.status = this.#status;
      this.#result.textContent =
        this.#status === "INVALID" || this.#status === "PENDING" || this.#status === "BLOCKED"
          ? texts.invalid
          : this.#answerText(texts, this.#status);
    }
  }

  /** A test session's answer says it is a test: nothing was verified. */
  #answerText(/** @type {(typeof TEXTS)[Language]} */ texts, /** @type {"APPROVED" | "DENIED" | "EXPIRED"} */ status) {
    if (this.#test && status === "APPROVED") return texts.test_APPROVED;
    if (this.#test && status === "DENIED") return texts.test_DENIED;
    return texts[status];
  }
}

if (!customElements.get("age-verification")) customElements.define("age-verification", AgeVerificationElement);
