// Small helpers every command adapter shares: opening a session, printing text or JSON, warnings.
import { Session } from "../engine/session.ts";
import type { GlobalOptions } from "../cli.ts";

export async function withSession<T>(g: GlobalOptions, write: boolean, fn: (s: Session) => Promise<T>): Promise<T> {
  const session = await Session.open({ home: g.home, workspace: g.workspace, project: g.project }, { write });
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

export function print(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

export function warn(message: string): void {
  process.stderr.write(`mindsave: warning: ${message}\n`);
}

export function note(message: string): void {
  process.stderr.write(`mindsave: ${message}\n`);
}

/** Pads to a display width, counting East Asian wide characters as two columns. */
export function padEnd(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += Bun.stringWidth(ch);
  return w;
}

/** Cuts to a display width with an ellipsis. */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (Bun.stringWidth(flat) <= width) return flat;
  let out = "";
  let w = 0;
  for (const ch of flat) {
    const cw = Bun.stringWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}
