// The console's tables: a scrolling region that a keyboard can reach (axe's scrollable-region-focusable)
// around a table whose body the client script fills. Columns are header texts; a visually hidden one
// names a column of buttons. A `stacked` table turns each row into a block of labelled lines on a narrow
// screen (console.css), so that no column is clipped and no button is pushed off-screen; the client
// script labels its cells from these headers.
import type { Child } from "hono/jsx";

export type Column = string | { hidden: string };

export function ConsoleTable(props: {
  id: string;
  label: string;
  columns: Column[];
  hidden?: boolean;
  stacked?: boolean;
  class?: string;
  children?: Child;
}) {
  return (
    <section class={props.class ? `table-wrap ${props.class}` : "table-wrap"} tabindex={0} aria-label={props.label}>
      <table id={props.id} hidden={props.hidden} class={props.stacked ? "stacked" : undefined}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{typeof column === "string" ? column : <span class="sr-only">{column.hidden}</span>}</th>
            ))}
          </tr>
        </thead>
        <tbody></tbody>
      </table>
      {props.children}
    </section>
  );
}
