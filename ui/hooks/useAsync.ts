// Loads data from an engine function; `reload()` runs it again after a change and resolves once
// the new data is in (a screen that must not act on stale rows waits for it).
import { useCallback, useEffect, useRef, useState } from "react";

export interface AsyncState<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  reload: () => Promise<void>;
}

export function useAsync<T>(fn: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const waiting = useRef<(() => void)[]>([]);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const settle = (next: { data?: T; error?: Error; loading: boolean }) => {
      if (!live) return; // a newer load answers the waiters
      setState(next);
      for (const w of waiting.current.splice(0)) w();
    };
    fn().then(
      (data) => settle({ data, loading: false }),
      (error: Error) => settle({ error, loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` are the caller's list for `fn`, as useEffect takes one
  }, [...deps, tick]);
  const reload = useCallback(
    () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        setTick((t) => t + 1);
      }),
    [],
  );
  return { ...state, reload };
}
