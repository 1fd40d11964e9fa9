// The console's tables: a scrolling region that a keyboard can reach (axe's scrollable-region-focusable)
// around a table whose body the client script fills. Columns are header texts; a visually hidden one
// names a column of buttons.
import type { Child } from "hono/jsx";

export type Column = string | { hidden: string };

export function ConsoleTable(props: { id: string; label: string; columns: Column[]; hidden?: boolean; class?: string; children?: Child }) {
  return (
    <div class={props.class ? `table-wrap ${props.class}` : "table-wrap"} tabindex={0} role="region" aria-label={props.label}>
      <table id={props.id} hidden={props.hidden}>
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
    </div>
  );
}
