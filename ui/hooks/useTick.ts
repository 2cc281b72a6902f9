// A screen that shows how long until something happens ("expires in 15s") draws itself again now
// and then while it is on top, and on any key: what it says never stays stale. One timer, no loop.
import { useEffect, useState } from "react";

/** Renders the screen every `ms` while `active`; the returned function renders it now (call it on a key). */
export function useTick(ms: number, active: boolean): () => void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
  return () => setTick((n) => n + 1);
}
