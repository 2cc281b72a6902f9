// A list read again while it is open (another process saved or deleted a row) keeps its selection
// on the row it was on; when that row is gone, on the next one still there (else the one above).
// Decided during render, like the list's own position (useListNavigation), so a key pressed right
// after the new rows arrive acts on the row the person sees selected.
import { useRef } from "react";
import type { ListNav } from "./useListNavigation.ts";

/** `key` names which rows these are (a filter): other rows start at the top, as the list decides. */
export function useHeldSelection<T>(rows: T[], nav: ListNav, key: unknown, idOf: (row: T) => string): void {
  const held = useRef<{ rows: T[]; key: unknown; id?: string }>({ rows, key });
  const was = held.current;
  const idAt = (i: number) => (rows[i] === undefined ? undefined : idOf(rows[i]));
  if (was.rows !== rows && was.key === key && was.id !== undefined && idAt(nav.selected) !== was.id) {
    const ids = rows.map(idOf);
    let at = ids.indexOf(was.id);
    if (at < 0) {
      const before = was.rows.map(idOf);
      const from = before.indexOf(was.id);
      const next =
        before.slice(from + 1).find((id) => ids.includes(id)) ??
        before
          .slice(0, Math.max(0, from))
          .reverse()
          .find((id) => ids.includes(id));
      at = next === undefined ? -1 : ids.indexOf(next);
    }
    if (at >= 0) nav.setSelected(at);
  }
  held.current = { rows, key, id: idAt(nav.selected) };
}
