// The shared page frame of the apps: head, stylesheet and scripts from this Worker only (see csp.ts).
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { assetPath, type AssetName } from "./assets/manifest";

// A data: icon, so that the browser's favicon request never produces a failed load.
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%232446c7'/%3E%3Cpath d='M9 16.5l4.5 4.5L23 11.5' stroke='white' stroke-width='3.2' fill='none' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E";

export type LayoutProps = {
  title: string;
  scripts: AssetName[];
  /** The app's own stylesheet, linked after the shared app.css (its rules may rely on coming later). */
  styles?: AssetName[];
  wide?: boolean;
  /** The page's language (the end user's pages are translated; the console stays English). */
  lang?: string;
  children: Child;
};

export function Layout(props: LayoutProps) {
  return (
    <>
      {raw("<!doctype html>")}
      <html lang={props.lang ?? "en"}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <title>{props.title}</title>
          <link rel="icon" href={ICON} />
          <link rel="stylesheet" href={assetPath("app.css")} />
          {(props.styles ?? []).map((name) => (
            <link rel="stylesheet" href={assetPath(name)} />
          ))}
          {props.scripts.map((name) => (
            <script defer src={assetPath(name)}></script>
          ))}
        </head>
        <body>
          <div class={props.wide ? "shell wide" : "shell"}>{props.children}</div>
        </body>
      </html>
    </>
  );
}

/** `name`: the service's name in the page's language (the end user's pages); the console's stays English. */
export function Brand(props: { subtitle?: string; name?: string }) {
  return (
    <span class="brand">
      <span class="brand-mark" aria-hidden="true">
        ✓
      </span>
      <span>
        {props.name ?? "Age Verification"}
        {props.subtitle ? <span class="muted"> · {props.subtitle}</span> : null}
      </span>
    </span>
  );
}

export function NoScript({ text = "This page needs JavaScript. Please turn it on and reload the page." }: { text?: string }) {
  return (
    <noscript>
      <p class="notice error">{text}</p>
    </noscript>
  );
}
