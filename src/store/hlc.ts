// Hybrid logical clocks as sortable text: `<wall ms, 13 digits>-<counter, 4 digits>-<host>`.
// The counter never reaches 10,000: at 9,999 the wall part moves on by 1 ms instead, so the text
// form always sorts in clock order (the standard HLC overflow rule).

export interface Hlc {
  wall: number;
  counter: number;
}

/** The largest counter the 4-digit text form holds. */
export const MAX_COUNTER = 9999;

/** How far ahead of this host's wall clock a received clock may pull the local clock. */
export const MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

const WIDTH = MAX_COUNTER + 1;

/** Non-negative integers only: anything else (NaN, negative, fractions) is floored to 0 or down. */
function whole(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** A clock with its counter carried into the wall part, so the counter fits 4 digits. */
export function normalizeHlc(wall: number, counter: number): Hlc {
  const c = whole(counter);
  return { wall: whole(wall) + Math.floor(c / WIDTH), counter: c % WIDTH };
}

/** A hybrid logical clock: wall-clock milliseconds, a counter, and the host; sorts as text. */
export function formatHlc(wall: number, counter: number, host: string): string {
  const n = normalizeHlc(wall, counter);
  return `${String(n.wall).padStart(13, "0")}-${String(n.counter).padStart(4, "0")}-${host}`;
}

const HLC_TEXT = /^\s*(\d{1,16})-(\d{1,16})(?:-(.*))?$/s;

/** Reads a clock; text that is not one reads as the zero clock, an oversized counter is carried. */
export function parseHlc(hlc: string | null | undefined): Hlc {
  const m = HLC_TEXT.exec(String(hlc ?? ""));
  return m ? normalizeHlc(Number(m[1]), Number(m[2])) : { wall: 0, counter: 0 };
}

/**
 * Orders two clocks by value (wall, counter, then host). For well-formed clocks this is the text
 * order; it also orders rows stamped before the overflow rule existed (a 5-digit counter).
 */
export function compareHlc(a: string | null | undefined, b: string | null | undefined): number {
  const x = parseHlc(a);
  const y = parseHlc(b);
  if (x.wall !== y.wall) return x.wall < y.wall ? -1 : 1;
  if (x.counter !== y.counter) return x.counter < y.counter ? -1 : 1;
  const hx = hlcHost(a);
  const hy = hlcHost(b);
  return hx === hy ? 0 : hx < hy ? -1 : 1;
}

/** The host part of a clock ("" when it has none). */
export function hlcHost(hlc: string | null | undefined): string {
  return HLC_TEXT.exec(String(hlc ?? ""))?.[3] ?? "";
}

/** Whether clock `a` is past clock `b` (wall, then counter). */
export function isPast(a: Hlc, b: Hlc): boolean {
  return a.wall > b.wall || (a.wall === b.wall && a.counter > b.counter);
}

/** The next local clock after `clock` at wall time `now`: never behind either, counter capped. */
export function nextHlc(clock: Hlc, now: number): Hlc {
  if (whole(now) > clock.wall) return { wall: whole(now), counter: 0 };
  return normalizeHlc(clock.wall, clock.counter + 1);
}

/** What a store remembers of a host whose clock ran more than MAX_AHEAD_MS ahead of its own. */
export interface ClockAhead {
  host: string;
  /** The newest clock seen from that host (its edits carry it, so they win until then). */
  hlc: string;
  /** How far ahead of this store's wall clock it was when it arrived. */
  ahead_ms: number;
  seen_at: string;
}

/** Meta keys `clock_ahead:<host id>` hold a ClockAhead as JSON. */
export const CLOCK_AHEAD_KEY = "clock_ahead:";

export function readClockAhead(key: string, value: string): ClockAhead | null {
  try {
    const v = JSON.parse(value) as Partial<ClockAhead>;
    if (typeof v.hlc !== "string") return null;
    return {
      host: key.slice(CLOCK_AHEAD_KEY.length),
      hlc: v.hlc,
      ahead_ms: Number(v.ahead_ms) || 0,
      seen_at: String(v.seen_at ?? ""),
    };
  } catch {
    return null;
  }
}
