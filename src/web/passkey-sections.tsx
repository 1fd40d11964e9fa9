// The passkey parts of /verify and /account (docs/passkeys.md), shared by both apps and so kept here
// below them: the offer to create one after identity verification, the notice of a merchant that
// requires one, and the account's passkey settings. assets/passkeys.browser.js drives them. Texts from
// the pages' catalogue.
import type { TextKey } from "./i18n/en";
import { Field } from "./form-field";

type Texts = { t: (key: TextKey) => string };
export function PasskeyOffer({ t }: Texts) {
  return (
    <section id="passkey-offer" class="card" hidden aria-labelledby="passkey-offer-title">
      <h2 id="passkey-offer-title">{t("passkey.offer.title")}</h2>
      <p class="muted">{t("passkey.offer.text")}</p>
      <div id="passkey-offer-notice" class="notice error" hidden></div>
      <Field
        form="passkey-offer"
        name="password"
        type="password"
        autocomplete="current-password"
        label={t("passkey.password")}
        hint={t("passkey.password.hint")}
      />
      <div class="actions">
        <button type="button" class="btn block" id="passkey-create">
          {t("passkey.create")}
        </button>
        <button type="button" class="btn block secondary" id="passkey-skip">
          {t("passkey.skip")}
        </button>
      </div>
    </section>
  );
}

export function PasskeyRequired() {
  return (
    <p id="passkey-required" class="notice warn" role="status" hidden>
      <span id="passkey-required-text"></span>
    </p>
  );
}

/** `standalone`: on the account page, open and always shown (data-always), the account's one place for passkeys. */
export function PasskeySettings({ t, standalone = false }: Texts & { standalone?: boolean }) {
  return (
    <details id="passkey-settings" class="card" hidden open={standalone} data-always={standalone ? "" : undefined}>
      <summary>{t("passkey.settings")}</summary>
      <p class="muted">{t("passkey.settings.text")}</p>
      <div id="passkey-settings-notice" class="notice" role="status" hidden></div>
      <ul id="passkey-list" class="passkeys"></ul>
      <p id="passkey-empty" class="muted" hidden>
        {t("passkey.empty")}
      </p>
      <div id="passkey-add-password-field" hidden>
        <Field
          form="passkey-add"
          name="password"
          type="password"
          autocomplete="current-password"
          label={t("passkey.password")}
          hint={t("passkey.password.hint")}
        />
      </div>
      <button type="button" class="btn small secondary" id="passkey-add">
        {t("passkey.add")}
      </button>
    </details>
  );
}
