// Small helpers every command adapter shares: opening a session, printing text or JSON, warnings.
import { Session } from "../engine/session.ts";
import type { GlobalOptions } from "../types.ts";

export async function withSession<T>(g: GlobalOptions, write: boolean, fn: (s: Session) => Promise<T>): Promise<T> {
  const session = await Session.open({ home: g.home, workspace: g.workspace, project: g.project }, { write });
  try {
    return await fn(session);
  } finally {
    for (const n of session.notices) note(n);
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
