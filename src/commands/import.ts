// `mindsave import DIR`: a workspace's .mindsave/ written by the original MindSave skill or SDK
// (snapshots, index.json, failure graph, tool logs, signal.json) into a project: --into's, the one
// an `export` folder came from, or that workspace's.
import { resolve } from "node:path";
import { UserError } from "../errors.ts";
import { importSeed } from "../engine/formats/seed-import.ts";
import type { ImportReport } from "../engine/formats/seed-layout.ts";
import { ABSENT_FILES } from "../engine/snapshots/save.ts";
import { isStandaloneExport, locateSeed } from "../engine/formats/seed-layout.ts";
import { print, printJson, terminalProgress, warn, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";

export async function run(
  opts: { into?: string; restoreDeleted?: boolean },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  const source = args[0];
  if (!source)
    throw new UserError("Give the workspace to import from (or its .mindsave folder): mindsave import DIR.");
  if (opts.into && g.project && opts.into !== g.project)
    throw new UserError("Give the target project once: --into PROJECT (or --in PROJECT).");
  const into = opts.into ?? g.project;
  const loc = locateSeed(source);
  // A workspace's .mindsave/ goes to that workspace's project; a folder written by `export --out`
  // is no workspace, so the current one (or --workspace) is where it goes when its project is new here.
  const standalone = isStandaloneExport(loc);
  if (!standalone && g.workspace && resolve(g.workspace) !== loc.root) {
    throw new UserError(
      `import takes the workspace from DIR (${loc.root}); drop \`--workspace ${g.workspace}\`.`,
    );
  }
  const r = await withSession(
    { ...g, project: undefined, workspace: standalone ? g.workspace : loc.root },
    true,
    (s) => {
      const progress = terminalProgress(g);
      return importSeed(s, loc, {
        into,
        restoreDeleted: opts.restoreDeleted,
        progress: progress && ((done, total) => progress("importing snapshots", done, total)),
      });
    },
  );
  if (g.json) printJson(r);
  else printReport(r);
  return 0;
}

/** The import for a person: warnings folded, then what came in, kind by kind, and how to go on. */
function printReport(r: ImportReport): void {
  for (const w of foldRepeats(foldAbsentFiles(r.warnings))) warn(w);
  for (const f of r.snapshots.failed) warn(`${f.file} was not imported: ${f.reason}`);
  const s = r.snapshots;
  print(`Imported ${r.source} into project ${r.project?.name ?? "?"} (${r.root ?? "no root on this host"}):`);
  print(
    `  snapshots   ${s.imported.length} imported, ${s.skipped.length} skipped (already in the store)${s.deleted.length ? `, ${s.deleted.length} deleted here earlier (not brought back; --restore-deleted brings them back)` : ""}${s.failed.length ? `, ${s.failed.length} could not be imported (see above; fix and run import again)` : ""}`,
  );
  print(
    `  failures    ${r.failures.imported} imported, ${r.failures.skipped} skipped (already in the store)`,
  );
  print(
    `  tool calls  ${r.tool_calls.imported} imported, ${r.tool_calls.skipped} skipped (already in the store)`,
  );
  const signal = {
    imported: "imported",
    unchanged: "nothing to add (the store's signal says the same, the snapshots imported included)",
    older: "older than the project's, kept the project's",
    absent: "none",
  }[r.signal];
  print(`  signal.json ${signal}`);
  const m = r.memory;
  if (m.rules || m.facts || m.retired)
    print(`  memory      ${m.rules} rule(s), ${m.facts} fact(s), ${m.retired} retirement(s) added`);
  if (r.off)
    print(
      `  off.json    MindSave was off in the exported project, so it is off in ${r.project?.name ?? "this project"} now: agents' hooks save and restore nothing here (\`mindsave on\` turns it back on)`,
    );
  if (s.archived.length)
    print(
      `  archived    ${s.archived.length} older snapshot(s), out of the default list (nothing deleted; \`mindsave snapshots list --all\` shows them)`,
    );
  if (s.imported.length)
    print(
      `Restore the newest with \`mindsave load --latest\`; \`mindsave snapshots\` lists ${s.archived.length ? "the newest" : "them all"}.`,
    );
}

/**
 * The same warning about many snapshot files (`snapshots/x.md: failure "…" has no reason…` for
 * each of 2,000) once, with how many files it was; --json keeps every one.
 */
function foldRepeats(warnings: string[]): string[] {
  const byText = new Map<string, string[]>();
  const out: (string | { text: string })[] = [];
  for (const w of warnings) {
    const m = /^(\S+\.md): (.*)$/s.exec(w);
    if (!m) {
      out.push(w);
      continue;
    }
    const files = byText.get(m[2]);
    if (files) files.push(m[1]);
    else {
      byText.set(m[2], [m[1]]);
      out.push({ text: m[2] });
    }
  }
  return out.flatMap((o) => {
    if (typeof o === "string") return [o];
    const files = byText.get(o.text)!;
    return files.length <= 3
      ? files.map((f) => `${f}: ${o.text}`)
      : [`${files[0]} and ${files.length - 1} other snapshot files: ${o.text}`];
  });
}

/**
 * Snapshots naming active files that are not on this host (each its own list, so foldRepeats
 * cannot join them) as one line: how many, the first few files, and what it means.
 */
function foldAbsentFiles(warnings: string[]): string[] {
  const head = /^\S+\.md: (.*)$/s;
  const isAbsent = (w: string) => head.exec(w)?.[1].startsWith(ABSENT_FILES) ?? false;
  const absent = warnings.filter(isAbsent);
  if (absent.length < 2) return warnings;
  const files = new Set<string>();
  for (const w of absent) for (const f of /\): (.*)\.$/s.exec(w)?.[1].split(", ") ?? []) files.add(f);
  const first = [...files].slice(0, 3);
  const more = files.size - first.length;
  const named = first.join(", ") + (more ? ` and ${more} more` : "");
  const line = `${absent.length} imported snapshots name active files not found on this host (${named}): they were saved by path only, so a restore names them without checking them; --json lists each snapshot's.`;
  return [line, ...warnings.filter((w) => !isAbsent(w))];
}
