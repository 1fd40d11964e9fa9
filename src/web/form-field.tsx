// A labelled input with its hint and an error slot that the client script fills from a 422 response.
export type FieldProps = {
  form: string;
  name: string;
  label: string;
  type?: string;
  autocomplete?: string;
  required?: boolean;
  hint?: string;
  value?: string;
  minLength?: number;
  maxLength?: number;
};

export function Field(props: FieldProps) {
  const id = `${props.form}-${props.name.replace(/\W/g, "-")}`;
  const hintId = props.hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        autocomplete={props.autocomplete}
        required={props.required}
        value={props.value}
        minlength={props.minLength}
        maxlength={props.maxLength}
        aria-describedby={[hintId, `${id}-error`].filter(Boolean).join(" ")}
      />
      {props.hint ? (
        <span class="hint" id={hintId}>
          {props.hint}
        </span>
      ) : null}
      <p class="field-error" id={`${id}-error`} data-error-for={props.name} hidden></p>
    </div>
  );
}

/** The form-level message box that showFailure writes into. */
export const FormNotice = () => <div class="notice error" role="alert" hidden></div>;
