// A secret the console shows once (a new key, its signing secret, a rotated signing secret), with its
// Copy button; console.browser.js fills the value and copies it.
/**
 * A secret shown once: the whole value on screen (a read-only text area that wraps, never a field that
 * hides its end) and a Copy button whose outcome `statusId` announces.
 */
export function SecretField({
  id,
  label,
  copyName,
  statusId = "copy-status",
}: {
  id: string;
  label: string;
  copyName: string;
  statusId?: string;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="secret-box">
        <textarea id={id} class="secret-text" rows={3} readonly spellcheck={false} autocomplete="off"></textarea>
        <button type="button" class="btn secondary small" data-copy={id} data-copy-status={statusId} aria-label={copyName}>
          Copy
        </button>
      </div>
    </div>
  );
}
