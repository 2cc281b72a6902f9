// fast-check arbitraries shared by the property tests.
import fc from "fast-check";

// Code points below and above the surrogates (U+D800–U+DFFF), as fast-check's full alphabet has them.
const SURROGATES = 0x800;
const FIRST_SURROGATE = 0xd800;

/**
 * One code point, any but a surrogate half: fast-check's `unit: "binary"` built the same way (an
 * index over the same code points), so a seed gives the same strings. fast-check's own makes a
 * table of all 1.1 million code points on first use, ~1 s of CPU in each test file that asks.
 */
export const anyCodePoint = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (i) => String.fromCodePoint(i < FIRST_SURROGATE ? i : i + SURROGATES),
  (s) => {
    // Read back (fast-check shrinks a string it did not generate, such as "__proto__", through this).
    if (typeof s !== "string" || [...s].length !== 1) throw new Error("not one code point");
    const c = s.codePointAt(0)!;
    if (c >= FIRST_SURROGATE && c < FIRST_SURROGATE + SURROGATES) throw new Error("a surrogate half");
    return c < FIRST_SURROGATE ? c : c - SURROGATES;
  },
);
