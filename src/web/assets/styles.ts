// The apps' one stylesheet: mobile first, system fonts, colours with at least 4.5:1 contrast on their
// backgrounds, and a visible focus ring on everything a keyboard can reach.
export const STYLES = String.raw`
:root {
  --ink: #15192b; --muted: #4a5068; --line: #d5d9e4; --bg: #f3f5f9; --card: #ffffff;
  --brand: #2446c7; --brand-ink: #ffffff; --brand-soft: #e8edfc;
  --ok: #0b6b3a; --ok-soft: #e3f5ea; --bad: #a8201a; --bad-soft: #fdecea; --warn: #7a4b00; --warn-soft: #fff4dc;
  --radius: 14px; --shadow: 0 1px 2px rgba(21,25,43,.06), 0 8px 24px rgba(21,25,43,.06);
  color-scheme: light;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
[hidden] { display: none !important; }
a { color: var(--brand); }
h1 { font-size: 1.45rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
p { margin: 0 0 .75rem; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.shell { max-width: 32rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
.shell.wide { max-width: 68rem; }
.topbar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .5rem 0 1rem; }
.brand { display: flex; align-items: center; gap: .5rem; font-weight: 700; color: var(--ink); text-decoration: none; }
.brand-mark { width: 28px; height: 28px; border-radius: 8px; background: var(--brand); display: grid; place-items: center; color: #fff; font-size: .85rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.25rem; margin-bottom: 1rem; }
.card.accent { border-color: var(--brand); background: var(--brand-soft); }
.lede { color: var(--muted); }
.muted { color: var(--muted); font-size: .92rem; }
.steps { display: flex; gap: .4rem; list-style: none; padding: 0; margin: 0 0 1rem; font-size: .85rem; color: var(--muted); }
.steps li { flex: 1; border-top: 4px solid var(--line); padding-top: .35rem; }
.steps li.done, .steps li.current { border-color: var(--brand); color: var(--ink); }
.steps li.current { font-weight: 600; }
.request-title { font-size: 1.3rem; font-weight: 700; margin: 0 0 .35rem; }
.countdown { display: inline-flex; align-items: center; gap: .4rem; font-variant-numeric: tabular-nums; font-weight: 600; color: var(--warn); background: var(--warn-soft); border-radius: 999px; padding: .2rem .7rem; font-size: .9rem; }
.tabs { display: flex; gap: .25rem; border-bottom: 1px solid var(--line); margin: -.25rem 0 1rem; flex-wrap: wrap; }
.tabs button { background: none; border: none; border-bottom: 3px solid transparent; padding: .6rem .8rem; font: inherit; font-weight: 600; color: var(--muted); cursor: pointer; border-radius: 6px 6px 0 0; }
.tabs button[aria-selected="true"] { color: var(--brand); border-bottom-color: var(--brand); }
form { margin: 0; }
.field { margin-bottom: .9rem; }
.field label { display: block; font-weight: 600; margin-bottom: .25rem; }
.field .hint { display: block; color: var(--muted); font-size: .85rem; margin-top: .2rem; }
.field-error { color: var(--bad); font-size: .88rem; margin: .25rem 0 0; }
input, select { width: 100%; font: inherit; color: var(--ink); padding: .65rem .75rem; border: 1px solid #8a90a6; border-radius: 10px; background: #fff; min-height: 44px; }
input[aria-invalid="true"] { border-color: var(--bad); }
input[readonly] { background: var(--bg); }
.row { display: flex; gap: .75rem; flex-wrap: wrap; }
.row > .field { flex: 1 1 10rem; }
.actions { display: flex; gap: .6rem; flex-wrap: wrap; margin-top: .5rem; align-items: center; }
.btn { display: inline-flex; align-items: center; justify-content: center; gap: .4rem; min-height: 44px; padding: .6rem 1.1rem; border-radius: 10px; border: 1px solid var(--brand); background: var(--brand); color: var(--brand-ink); font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; }
.btn.block { width: 100%; }
.btn.secondary { background: #fff; color: var(--brand); }
.btn.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
.btn.link { white-space: nowrap; background: none; border: none; color: var(--brand); padding: .4rem .2rem; min-height: 0; text-decoration: underline; font-weight: 500; }
.btn.small { min-height: 34px; padding: .3rem .7rem; font-size: .9rem; }
.btn[disabled] { opacity: .6; cursor: progress; }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.notice { border-radius: 10px; padding: .75rem .9rem; margin: 0 0 1rem; }
.notice.error { background: var(--bad-soft); color: var(--bad); border: 1px solid #f3b7b2; }
.notice.info { background: var(--brand-soft); color: #1b2f86; border: 1px solid #c3cff5; }
.notice.ok { background: var(--ok-soft); color: var(--ok); border: 1px solid #b5e0c5; }
.notice.warn { background: var(--warn-soft); color: var(--warn); border: 1px solid #f0d59a; }
.sandbox-badge { display: inline-block; font-size: .75rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: var(--warn); background: var(--warn-soft); border: 1px dashed var(--warn); border-radius: 6px; padding: .1rem .45rem; }
.result { text-align: center; padding: 2rem 1.25rem; }
.result-icon { width: 64px; height: 64px; border-radius: 50%; margin: 0 auto 1rem; display: grid; place-items: center; font-size: 2rem; font-weight: 700; }
.result-icon.ok { background: var(--ok-soft); color: var(--ok); }
.result-icon.bad { background: var(--bad-soft); color: var(--bad); }
.result-icon.neutral { background: var(--brand-soft); color: var(--brand); }
.shares { list-style: none; padding: 0; margin: .5rem 0 1rem; }
.shares li { padding: .25rem 0 .25rem 1.6rem; position: relative; }
.shares li::before { position: absolute; left: 0; font-weight: 700; }
.shares li.yes::before { content: "\2713"; color: var(--ok); }
.shares li.no::before { content: "\2715"; color: var(--bad); }
.spinner { width: 28px; height: 28px; border: 3px solid var(--line); border-top-color: var(--brand); border-radius: 50%; margin: 1rem auto; animation: spin 1s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
table { width: 100%; border-collapse: collapse; font-size: .92rem; }
th, td { text-align: left; padding: .55rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .82rem; text-transform: uppercase; letter-spacing: .03em; }
.table-wrap { overflow-x: auto; }
.pill { display: inline-block; border-radius: 999px; padding: .05rem .55rem; font-size: .8rem; font-weight: 600; }
.pill.APPROVED, .pill.active { background: var(--ok-soft); color: var(--ok); }
.pill.DENIED, .pill.revoked { background: var(--bad-soft); color: var(--bad); }
.pill.EXPIRED { background: #eceef3; color: #3d4257; }
.pill.PENDING { background: var(--warn-soft); color: var(--warn); }
.grid { display: grid; gap: 1rem; }
@media (min-width: 52rem) { .grid.two { grid-template-columns: 2fr 1fr; } }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(7rem, 1fr)); gap: .6rem; margin-bottom: 1rem; }
.stat { border: 1px solid var(--line); border-radius: 10px; padding: .6rem .75rem; background: #fff; }
.stat .label { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .03em; }
.stat .value { font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.secret-box { display: flex; gap: .5rem; align-items: stretch; margin-bottom: .75rem; }
.secret-box input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85rem; }
.chart { width: 100%; height: auto; display: block; }
.legend { display: flex; gap: 1rem; flex-wrap: wrap; font-size: .85rem; color: var(--muted); margin: .5rem 0 0; padding: 0; list-style: none; }
.legend span { display: inline-block; width: .8rem; height: .8rem; border-radius: 3px; margin-right: .35rem; vertical-align: -1px; }
.sw-APPROVED { background: #1f8a53; } .sw-DENIED { background: #c4372f; } .sw-EXPIRED { background: #8a90a6; } .sw-PENDING { background: #e0a100; }
.empty { text-align: center; color: var(--muted); padding: 1.5rem .5rem; }
nav.sections { display: flex; gap: .25rem; flex-wrap: wrap; }
dialog { border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; max-width: 26rem; box-shadow: var(--shadow); }
dialog::backdrop { background: rgba(21,25,43,.45); }
.footer { text-align: center; color: var(--muted); font-size: .82rem; margin-top: 1.5rem; }
ol.recipe { padding-left: 1.2rem; margin: 0; }
ol.recipe li { margin-bottom: .4rem; }
.center { text-align: center; }
.mt { margin-top: .75rem; }
`;
