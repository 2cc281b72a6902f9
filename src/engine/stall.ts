// For crash tests only: MINDSAVE_STALL=<point> stops the process at that named point (inside a
// transaction) until it is killed, so a SIGKILL lands exactly there. Never set in normal use.
export async function stallIfAsked(point: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.MINDSAVE_STALL !== point && env.MINDSAVE_SYNC_STALL !== point) return;
  process.stderr.write(`mindsave: stalled at ${point}\n`);
  await new Promise(() => {});
}
