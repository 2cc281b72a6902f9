// Hybrid logical clocks as sortable text.

/** A hybrid logical clock: wall-clock milliseconds, a counter, and the host; sorts as text. */
export function formatHlc(wall: number, counter: number, host: string): string {
  return `${String(wall).padStart(13, "0")}-${String(counter).padStart(4, "0")}-${host}`;
}

export function parseHlc(hlc: string): { wall: number; counter: number } {
  const [wall, counter] = hlc.split("-");
  return { wall: Number(wall) || 0, counter: Number(counter) || 0 };
}

