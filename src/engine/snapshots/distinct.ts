// The lists of a snapshot without repeats: lines of text compared loosely, file paths exactly.

/** Lines that say the same thing once (case and spacing aside); `dropped` hears each repeat and the line it repeats. */
export const dedupe = (xs: string[], dropped?: (x: string, first: string) => void) => {
  const seen = new Map<string, string>();
  return xs.filter((x) => {
    const k = x.trim().replace(/\s+/g, " ").toLowerCase();
    if (!k) return false;
    const first = seen.get(k);
    if (first !== undefined) {
      if (x !== first) dropped?.(x, first);
      return false;
    }
    seen.set(k, x);
    return true;
  });
};

/** File paths once each, exactly as given: `Foo.ts` and `foo.ts`, or `a b.ts` and `a  b.ts`, are two files on Linux. */
export const distinctPaths = (xs: string[]) => [...new Set(xs.filter((x) => x.trim()))];
