// "Add proof of age to a wallet" on the person's account page (docs/attestations.md, "For the person"):
// the button that makes an offer (POST /api/attestations/offers), or the plain reason there is none for
// this person; then the offer: its QR code on a wide screen, the av:// link to tap on a phone (and the
// standard openid-credential-offer:// one for other wallets), the transaction code to type in the wallet,
// and when the offer ends. account-page.browser.js fills it; account.css lays it out by screen width.
import type { TextKey } from "../../web/i18n/en";

export function ProofOfAgeSection({ t }: { t: (key: TextKey) => string }) {
  return (
    <section id="me-proof" class="card" hidden aria-labelledby="me-proof-title">
      <h2 id="me-proof-title">{t("me.proof.title")}</h2>
      <p class="muted">{t("me.proof.text")}</p>
      <div id="me-proof-notice" class="notice info" role="status" hidden></div>
      <button type="button" class="btn secondary" id="me-proof-start" hidden>
        {t("me.proof.start")}
      </button>
      <div id="me-proof-offer" class="proof-offer" tabindex={-1} hidden>
        <div class="proof-qr">
          <div id="me-proof-qr"></div>
          <p>{t("me.proof.scan")}</p>
        </div>
        <p class="proof-links">
          <a class="btn block" id="me-proof-open" href="#me-proof">
            {t("me.proof.open")}
          </a>
          <a id="me-proof-other" href="#me-proof">
            {t("me.proof.other")}
          </a>
        </p>
        <p>
          {t("me.proof.code")} <strong class="proof-code" id="me-proof-code"></strong>
        </p>
        <p class="muted" id="me-proof-expires"></p>
        <button type="button" class="btn secondary" id="me-proof-close">
          {t("me.proof.close")}
        </button>
      </div>
    </section>
  );
}
