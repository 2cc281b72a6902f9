// `load --verify`: does each active file exist on this host, and has it changed since the snapshot?
import { existsSync, readFileSync, statSync } from "node:fs";
import { sha256 } from "../ids.ts";
import { isAbsoluteAny, toHostPath } from "../projects/paths.ts";
import type { SnapshotRecord } from "../../store/store.ts";

export type FileCheck = {
  path: string;
  absolute: string;
  status: "ok" | "missing" | "modified" | "unknown";
  modified_at?: string;
};

/**
 * --verify: does each active file exist on this host, and has it changed since the snapshot? A
 * file outside the project saved on another host (`hostId`: this one) is a place on that host:
 * not checked here, where the same path names another machine's file.
 */
export function verifyFiles(s: SnapshotRecord, root: string | null, hostId?: string): FileCheck[] {
  return s.active_files.map((f) => {
    const absolute = toHostPath(f.path, root);
    if (hostId !== undefined && s.saved_host !== hostId && isAbsoluteAny(f.path))
      return { path: f.path, absolute, status: "unknown" };
    if (!existsSync(absolute)) return { path: f.path, absolute, status: "missing" };
    let st;
    try {
      st = statSync(absolute);
    } catch {
      return { path: f.path, absolute, status: "missing" };
    }
    const modified_at = new Date(st.mtimeMs).toISOString();
    if (f.sha256 === undefined && f.size === undefined)
      return { path: f.path, absolute, status: "unknown", modified_at };
    let changed = f.size !== undefined && st.size !== f.size;
    if (!changed && f.sha256 && st.isFile()) {
      try {
        changed = sha256(readFileSync(absolute)) !== f.sha256;
      } catch {
        changed = true;
      }
    } else if (!changed && !f.sha256 && f.mtime !== undefined) {
      changed = Math.round(st.mtimeMs) !== f.mtime;
    }
    return { path: f.path, absolute, status: changed ? "modified" : "ok", modified_at };
  });
}
