// The result screens' icons, shared by /verify's result step and the malformed-link page so that a bad
// link looks the same whichever way it was found (docs/end-user-apps.md). Inline SVG, not emoji or symbol characters
// (which can render as an empty box); verify.browser.js shows one of them.
const ICON_PATHS: Record<string, string[]> = {
  check: ["M5 12.5l4.5 4.5L19 7.5"],
  minus: ["M6 12h12"],
  cross: ["M7 7l10 10M17 7L7 17"],
  clock: ["M12 4a8 8 0 1 0 0 16a8 8 0 1 0 0-16", "M12 8v4l3 2"],
  question: ["M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14", "M12 17.5h.01"],
};

/** Every icon, all hidden but `shown` (none when the script picks one). */
export function ResultIcons({ shown }: { shown?: keyof typeof ICON_PATHS } = {}) {
  return (
    <>
      {Object.entries(ICON_PATHS).map(([name, paths]) => (
        <svg
          data-icon={name}
          viewBox="0 0 24 24"
          width="32"
          height="32"
          fill="none"
          stroke="currentColor"
          stroke-width="2.5"
          stroke-linecap="round"
          stroke-linejoin="round"
          focusable="false"
          aria-hidden="true"
          hidden={name !== shown}
        >
          {paths.map((d) => (
            <path d={d} />
          ))}
        </svg>
      ))}
    </>
  );
}
