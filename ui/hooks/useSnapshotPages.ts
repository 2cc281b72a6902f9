// A long list read a page at a time (issue 36): its count first, then the pages the screen shows
// and the next one as the cursor nears it. A page is read after the last row of the page before it
// (a keyset step) when that page is here, else by its place (G: the last page). Read again after a
// change, the new count and pages replace the old ones at once, so the selection holds its row.
import { useEffect, useMemo, useRef, useState } from "react";

/** Rows read at a time: a few screens. */
export const PAGE = 100;

/** Which rows to read: `after` a row (keyset) or from `offset`, `limit` of them. */
export interface PageRead<T> {
  after?: T;
  offset?: number;
  limit: number;
}

export interface SnapshotPages<T> {
  /** How many rows the list holds; undefined until counted. */
  total?: number;
  error?: Error;
  /** `total` long; a row not read yet is undefined. */
  rows: (T | undefined)[];
  /** The list these rows are of (the `key` they were read for), once read. */
  key?: string;
  /** The rows the screen shows, from..to: their pages are read if they are not here. */
  show: (from: number, to: number) => void;
  /** Reads the count and the pages on screen again; resolves once they replaced the old ones. */
  reload: () => Promise<void>;
}

interface Read<T> {
  key: string;
  total: number;
  pages: Map<number, T[]>;
}

/** The pages from..to lie on, within `total` rows. */
const pagesOf = (from: number, to: number, total: number) => {
  const out: number[] = [];
  for (let p = Math.floor(Math.max(0, from) / PAGE); p * PAGE < Math.min(total, to + 1); p++) out.push(p);
  return out;
};

/**
 * `key` names the list (a project, a tag, archived or not): another key starts over from its count.
 * Not `enabled` (a search shows other rows), the list is counted and no page is read.
 */
export function useSnapshotPages<T>(
  key: string,
  count: () => Promise<number>,
  page: (read: PageRead<T>) => Promise<T[]>,
  enabled = true,
): SnapshotPages<T> {
  const [read, setRead] = useState<Read<T> | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [, setVersion] = useState(0);
  const current = useRef<Read<T> | undefined>(undefined);
  current.current = read?.key === key ? read : undefined;
  const wanted = useRef({ from: 0, to: PAGE - 1 });
  const inFlight = useRef(new Set<string>());
  const [tick, setTick] = useState(0);
  const waiting = useRef<(() => void)[]>([]);

  const readPage = async (r: Read<T>, p: number) => {
    const last = r.pages.get(p - 1)?.at(-1);
    return page(last !== undefined ? { after: last, limit: PAGE } : { offset: p * PAGE, limit: PAGE });
  };

  // The count and the pages on screen, for this key (or again after a change): swapped in whole.
  useEffect(() => {
    let live = true;
    (async () => {
      const next: Read<T> = { key, total: await count(), pages: new Map() };
      if (enabled)
        for (const p of pagesOf(wanted.current.from, wanted.current.to, next.total))
          next.pages.set(p, await readPage(next, p));
      if (!live) return;
      setError(undefined);
      setRead(next);
      for (const w of waiting.current.splice(0)) w();
    })().catch((e: Error) => live && setError(e));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again only for another list or a change, not for new functions of the same list
  }, [key, tick, enabled]);

  const show = (from: number, to: number) => {
    wanted.current = { from, to };
    const r = current.current;
    if (!r || !enabled) return;
    for (const p of pagesOf(from, to, r.total)) {
      const id = `${r.key}\0${p}`;
      if (r.pages.has(p) || inFlight.current.has(id)) continue;
      inFlight.current.add(id);
      readPage(r, p)
        .then((rows) => {
          r.pages.set(p, rows);
          setVersion((v) => v + 1);
        })
        .catch((e: Error) => setError(e))
        .finally(() => inFlight.current.delete(id));
    }
  };

  const r = current.current;
  const version = r ? [...r.pages.keys()].join(",") : "";
  const rows = useMemo(() => {
    const out = new Array<T | undefined>(r?.total ?? 0);
    for (const [p, pageRows] of r?.pages ?? []) pageRows.forEach((row, i) => (out[p * PAGE + i] = row));
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the pages are a mutable map: `version` says which are here
  }, [r, version]);
  return {
    total: r?.total,
    error,
    rows,
    key: r?.key,
    show,
    reload: () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        setTick((t) => t + 1);
      }),
  };
}
