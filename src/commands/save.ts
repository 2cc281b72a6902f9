// `mindsave save`: a snapshot from YAML (stdin or --file) and/or flags.
import { UserError } from "../errors.ts";
import { readStreamCapped, readTextCapped, TooLarge } from "../lib/bounded-read.ts";
import { saveReport, saveSnapshot } from "../engine/snapshots/save.ts";
import { applyFlags, emptyInput, parseSnapshotText, type FlagFields } from "../engine/snapshots/input.ts";
import { DOCUMENT_MAX, documentTooLarge } from "../engine/snapshots/input-limits.ts";
import { saveSummary } from "../engine/snapshots/summaries.ts";
import { print, printJson, warn, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

interface SaveFlags extends FlagFields {
  file?: string;
  overflow?: boolean;
  keep?: number;
}

/** stdin's text, read no further than a snapshot may be long. */
async function readStdin(): Promise<string> {
  try {
    return await readStreamCapped(Bun.stdin.stream(), DOCUMENT_MAX);
  } catch (e) {
    if (e instanceof TooLarge) throw documentTooLarge("The snapshot on stdin", e.size, e.whole);
    return "";
  }
}

const FIELD_FLAGS = [
  "goal",
  "state",
  "next",
  "activeFile",
  "blocker",
  "constraint",
  "decision",
  "failed",
] as const;

export async function run(opts: SaveFlags, _args: string[], g: GlobalOptions): Promise<number> {
  let source: { text: string; origin: string } | null = null;
  if (opts.file === "-") {
    source = { text: await readStdin(), origin: "stdin" };
  } else if (opts.file) {
    try {
      source = { text: readTextCapped(opts.file, DOCUMENT_MAX), origin: opts.file };
    } catch (e) {
      if (e instanceof TooLarge) throw documentTooLarge(opts.file, e.size, e.whole);
      throw new UserError(`Cannot read the snapshot file ${opts.file}.`);
    }
  } else if (FIELD_FLAGS.every((f) => opts[f] === undefined) && !process.stdin.isTTY) {
    // No field flags and piped input: the snapshot comes on stdin. With any flag we never wait on stdin.
    const text = await readStdin();
    if (text.trim()) source = { text, origin: "stdin" };
  }
  const input = source
    ? parseSnapshotText(source.text, source.origin === "stdin" ? "The snapshot on stdin" : source.origin)
    : emptyInput();
  applyFlags(input, opts);

  const result = await withSession(g, true, (s) =>
    saveSnapshot(s, { input, overflow: opts.overflow, keep: opts.keep, whole: opts.file !== undefined }),
  );
  if (g.json) {
    // `saved`: the name this JSON gave snapshot_id before both faces shared one shape, kept for scripts.
    const report = saveReport(result);
    printJson({ saved: report.snapshot_id, ...report });
  } else {
    for (const w of result.warnings) warn(w);
    print(saveSummary(result, "cli", opts.keep).join("\n"));
  }
  return 0;
}
