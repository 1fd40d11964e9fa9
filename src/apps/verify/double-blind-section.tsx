// The double-blind step of /verify (docs/double-blind.md): a request answered with an anonymous age token
// from this device's stock, never with the account. What the person is told depends on the stock: a
// token held (answer with it), or none (getting one now could be joined to the answer by timing: get one
// and answer after a random wait, answer with a digital ID, or come back later). verify.browser.js
// drives it; the stock is age-tokens.browser.js. Texts from the page's catalogue; the {min}-{max} wait
// and the time are filled in by the script.
import type { TextKey } from "../../web/i18n/en";

type Texts = { t: (key: TextKey) => string };
export function DoubleBlindSection({ t }: Texts) {
  return (
    <section id="step-double-blind" class="card" hidden aria-labelledby="double-blind-title">
      <h2 id="double-blind-title" tabindex={-1}>
        {t("db.title")}
      </h2>
      <p id="db-stock" class="notice info" hidden>
        {t("db.stock")}
      </p>
      <div id="db-none" hidden>
        <p class="notice warn" role="status">
          {t("db.none")}
        </p>
        <p>{t("db.choose")}</p>
        <p id="db-wait-why" class="muted"></p>
        <div class="actions">
          <button type="button" class="btn block" id="db-wait">
            {t("db.wait")}
          </button>
          <button type="button" class="btn block secondary" id="db-wallet" hidden>
            {t("db.wallet")}
          </button>
          <button type="button" class="btn block secondary" id="db-later">
            {t("db.later")}
          </button>
        </div>
      </div>
      <p id="db-later-text" class="notice info" role="status" hidden></p>
      <div id="db-waiting" hidden>
        <p id="db-countdown" role="timer" aria-live="off"></p>
        <p class="muted">{t("db.waiting.note")}</p>
        <button type="button" class="btn block secondary" id="db-cancel">
          {t("db.cancel")}
        </button>
      </div>
      <div id="db-notice" class="notice error" hidden></div>
      <div class="actions" id="db-answer" hidden>
        <button type="button" class="btn block" id="db-send">
          {t("db.send")}
        </button>
      </div>
    </section>
  );
}
