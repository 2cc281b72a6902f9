// For crash tests only: MINDSAVE_STALL=<point> stops the process at that named point (inside a
// transaction) until it is killed, so a SIGKILL lands exactly there. Never set in normal use.

/** Stalls in progress, held: see below. */
const stalled: Promise<never>[] = [];

export async function stallIfAsked(point: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.MINDSAVE_STALL !== point && env.MINDSAVE_SYNC_STALL !== point) return;
  // A promise nothing refers to is garbage, and so is every frame awaiting it: the collector closed
  // the open stores before the kill landed (their WAL folded in and removed, a transaction rolled
  // back). Held, it keeps them open; the timer lets the process wait without spinning a core.
  setInterval(() => {}, 2 ** 30);
  const forever = new Promise<never>(() => {});
  stalled.push(forever);
  // Said once a full collection has run with this frame waiting: what it would close is closed by then.
  setImmediate(() => {
    Bun.gc(true);
    setImmediate(() => process.stderr.write(`mindsave: stalled at ${point}\n`));
  });
  await forever;
}
