// The identity form's date of birth as three labelled parts, day, month and year, in the page's language
// (docs/end-user-apps.md): a native date input draws its parts in the browser's own language, so a German page in an
// English browser asked for mm/dd/yyyy. verify.browser.js joins the parts into the API's YYYY-MM-DD; a
// problem with the date is shown once, under the group (data-error-for="dob").
import type { TextKey } from "../../web/i18n/en";

const PARTS = [
  { part: "day", label: "kyc.dob.day", autocomplete: "bday-day", size: 2 },
  { part: "month", label: "kyc.dob.month", autocomplete: "bday-month", size: 2 },
  { part: "year", label: "kyc.dob.year", autocomplete: "bday-year", size: 4 },
] as const;

export function DateOfBirthField({ form, t }: { form: string; t: (key: TextKey) => string }) {
  const id = `${form}-dob`;
  return (
    <fieldset class="field date-of-birth" id={id} name="dob" aria-describedby={`${id}-hint ${id}-error`}>
      <legend>{t("kyc.dob")}</legend>
      <span class="hint" id={`${id}-hint`}>
        {t("kyc.dob.hint")}
      </span>
      <div class="date-parts">
        {PARTS.map(({ part, label, autocomplete, size }) => (
          <div class={`date-part ${part}`}>
            <label for={`${id}-${part}`}>{t(label)}</label>
            <input
              id={`${id}-${part}`}
              name={`dob-${part}`}
              type="text"
              inputmode="numeric"
              pattern="[0-9]*"
              autocomplete={autocomplete}
              maxlength={size}
              required
            />
          </div>
        ))}
      </div>
      <p class="field-error" id={`${id}-error`} data-error-for="dob" hidden></p>
    </fieldset>
  );
}
