// The console's list tables (users, tokens, deleted skills, skills, approvals, deployments, audit, trigger tests): the header row from
// a list of column names, and one full-width row for "loading" or "nothing yet", so each list writes only its rows.
import type { ReactNode } from "react";

export function DataTable({
  columns,
  testId,
  note,
  card = true,
  className,
  children,
}: {
  /** Header cells; "" for a column without a title (the row's buttons); a class for one that is aligned or sized. */
  columns: (string | { label: string; className: string })[];
  testId?: string;
  /** Shown as the only row's text when set (e.g. "Loading…", "No tokens yet."). */
  note?: ReactNode;
  /** In a card that scrolls sideways on narrow screens (the full-page lists); false inside a panel. */
  card?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const table = (
    <table className={className ? `table ${className}` : "table"} data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c, i) =>
            typeof c === "string" ? (
              <th key={i}>{c}</th>
            ) : (
              <th key={i} className={c.className}>
                {c.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {note ? (
          <tr>
            <td colSpan={columns.length} className="muted">
              {note}
            </td>
          </tr>
        ) : null}
        {children}
      </tbody>
    </table>
  );
  return card ? <div className="card overflow-x-auto p-0">{table}</div> : table;
}
