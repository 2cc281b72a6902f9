// State whose latest value is readable at once: several keys arriving in one burst each see what
// the previous key did (a `/` that opens the filter, then the letters typed into it).
import { useRef, useState } from "react";

export function useRefState<T>(initial: T): [() => T, (next: T | ((prev: T) => T)) => void] {
  const ref = useRef(initial);
  const [, render] = useState(0);
  const get = () => ref.current;
  const set = (next: T | ((prev: T) => T)) => {
    ref.current = typeof next === "function" ? (next as (prev: T) => T)(ref.current) : next;
    render((n) => n + 1);
  };
  return [get, set];
}
