// `mindsave doctor`: which home and why, the store's health, this host, hosts with clocks far ahead;
// what is wrong with a damaged store and, with --repair, recovering what can be read of it.
import {
  fullCheckEstimate,
  healthReport,
  byTableWords,
  isIndexPart,
  tableWords,
  type HealthReport,
  type RefusedRow,
} from "../engine/home/doctor.ts";
import { refusedText } from "../engine/sync/summary.ts";
import { repairHome, type RepairResult } from "../engine/home/repair.ts";
import { DEFAULT_KEEP } from "../engine/snapshots/layers.ts";
import { print, printJson, terminalProgress } from "./shared.ts";
import { byteSize } from "../lib/text.ts";
import type { GlobalOptions } from "../types.ts";

/**
 * Pages checked of all, whatever the store's size: --full is the long check. No estimate from the
 * rate: a search index's own check takes most of the time for its pages (the line before says
 * roughly how long in all, fullCheckLine).
 */
const CHECK_PROGRESS = { min: 1, estimate: false };

export async function run(
  o: { repair?: boolean; full?: boolean },
  _a: string[],
  g: GlobalOptions,
): Promise<number> {
  if (o.repair) {
    // The store's check of every page, then its repaired copy's: each a long check.
    const progress = terminalProgress(g, CHECK_PROGRESS);
    const r = await repairHome({
      home: g.home,
      progress:
        progress &&
        ((of, done, total, part) =>
          progress(
            of === "store" ? "checking pages" : "checking the repaired copy's pages",
            done,
            total,
            part,
          )),
    });
    if (g.json) printJson(r);
    else print(repairText(r));
    return 0;
  }
  if (o.full && !g.json && process.stderr.isTTY) process.stderr.write(fullCheckLine(g));
  const progress = o.full ? terminalProgress(g, CHECK_PROGRESS) : undefined;
  const r = await healthReport(
    { home: g.home, workspace: g.workspace, project: g.project },
    o.full ? "full" : "quick",
    progress && ((done, total, part) => progress("checking pages", done, total, part)),
  );
  if (g.json) printJson(r);
  else print(reportText(r));
  return r.problem === null && r.integrity === "ok" ? 0 : 1;
}

/** Said on a terminal before `--full` starts: its first part, the search index, is most of it, before any estimate. */
function fullCheckLine(g: GlobalOptions): string {
  const e = fullCheckEstimate({ home: g.home });
  return `Checking every page of the store (${byteSize(e.bytes)})${e.seconds > 1 ? `: roughly ${e.seconds} s` : ""}…\n`;
}

function reportText(r: HealthReport): string {
  return [
    `MindSave ${r.version} (${r.target}${r.compiled ? `, compiled: ${r.binary}` : ", from source"})`,
    `home:      ${r.home} (${r.home_reason})`,
    `store:     ${r.store}${r.read_only ? " (read-only here)" : ""}`,
    ...encryptionLines(r.encryption),
    `schema:    ${r.schema_version ?? "unknown"} (this build supports up to ${r.schema_supported})${r.journal_mode ? `, journal ${r.journal_mode}` : ""}`,
    `integrity: ${integrityText(r.integrity)}${r.integrity !== "ok" ? "" : r.check === "quick" ? " (quick check; `doctor --full` checks every page)" : " (every page checked)"}`,
    ...(r.problem ? [`problem:   ${r.problem}`] : []),
    ...damageLines(r.damage),
    ...(r.backups.length
      ? [
          `backups:   ${r.backups.join(", ")} (files named like the store's backups, MindSave's or not: after a \`scan --fix\` they may still hold what it redacted)`,
        ]
      : []),
    ...plainBackupsLine(r.plain_backups),
    `host:      ${r.host.name} (${r.host.id}, ${r.host.platform})`,
    `free:      ${r.free_bytes === null ? "unknown" : byteSize(r.free_bytes)} on the ${r.on_drive ? "drive" : "home's disk"}`,
    tokenizerLine(r.tokenizer),
    ...(r.off ? [`switch:    ${r.off.sentence ?? "on here (`mindsave off` switches it off)"}`] : []),
    ...r.clocks_ahead.map((c) => `clock:     ${c.message}`),
    ...refusedLines(r.refused_rows),
    ...r.unfinished_syncs.map((u) => `sync:      ${u.message}`),
  ].join("\n");
}

/** Whether the store is encrypted and how, and a key file left by an interrupted conversion. */
function encryptionLines(e: HealthReport["encryption"]): string[] {
  if (!e) return [];
  return [
    `encrypted: ${e.encrypted ? `yes (${e.cipher}, key from a passphrase by ${e.kdf}; key file ${e.key_file})` : "no"}${e.stale_key_file ? ` (ignoring ${e.stale_key_file}, left by an interrupted conversion)` : ""}`,
  ];
}

/** A damaged store's file (cut short, its log, its journal) and the rows of each kind it still reads. */
function damageLines(d: HealthReport["damage"]): string[] {
  if (!d) return [];
  return [
    `file:      ${byteSize(d.size)}${d.expected_size !== null && d.expected_size > d.size ? `, but its header says ${byteSize(d.expected_size)}: it was cut short` : ""}${d.wal_bytes ? `, ${byteSize(d.wal_bytes)} in its write-ahead log` : ""}${d.journal_bytes ? `, a journal of ${byteSize(d.journal_bytes)}` : ""}`,
    ...(Object.keys(d.tables).length
      ? [
          `rows:      ${Object.entries(d.tables)
            .filter(([t]) => !isIndexPart(t))
            .sort(([a], [b]) => byTableWords(a, b))
            .map(([t, n]) => `${tableWords(t)} ${n === null ? "unreadable" : n}`)
            .join(", ")}`,
        ]
      : []),
  ];
}

/** Where the tokenizer's vocabulary came from: mapped from a file, or read from the binary or a file. */
function tokenizerLine(t: HealthReport["tokenizer"]): string {
  return `tokenizer: ${t.how === "mapped" ? `vocabulary mapped from ${t.path}` : `vocabulary read from ${/^(\/\$bunfs\/|[A-Z]:\\~BUN\\)/i.test(t.path) ? "the binary" : t.path}${t.cache ? `; ${t.cache}` : ""}`}`;
}

/** One line per peer whose rows sync refused, naming a few (--json has them all). */
function refusedLines(rows: RefusedRow[]): string[] {
  const byPeer = new Map<string, RefusedRow[]>();
  for (const x of rows) byPeer.set(x.location, [...(byPeer.get(x.location) ?? []), x]);
  return [...byPeer].map(
    ([location, all]) =>
      `refused:   ${refusedText(all, location, "malformed, or a snapshot dated ahead of this host's clock; each sync with that peer asks for them again")}`,
  );
}

/** At most three findings of the integrity check on screen (--json has them all). */
function integrityText(integrity: string): string {
  const all = integrity.split("; ");
  return all.length > 3 ? `${all.slice(0, 3).join("; ")}; … (${all.length - 3} more)` : integrity;
}

function repairText(r: RepairResult): string {
  if (!r.repaired) return `The store ${r.store} is healthy; nothing to repair.`;
  const list = (k: "saved" | "lost") =>
    Object.entries(r.tables)
      .filter(([, t]) => t[k] > 0)
      .sort(([a], [b]) => byTableWords(a, b))
      .map(([name, t]) => `${tableWords(name)} ${t[k]}`)
      .join(", ");
  const rows = (n: number) => `${n} row${n === 1 ? "" : "s"}`;
  return [
    `Repaired the store ${r.store}: ${rows(r.saved)} saved (${list("saved") || "none"}), ${rows(r.lost)} lost${r.lost ? ` (${list("lost")})` : ""}${r.end_lost.length ? `, and the end of ${r.end_lost.map(tableWords).join(", ")} could not be read (rows after the last one saved are lost too)` : ""}; the search index was rebuilt (${r.indexed_snapshots} snapshots), and the change log (${r.change_log} entries: the next sync with each peer sends and takes everything again).`,
    ...listedText(r),
    `The damaged file is kept as ${r.backup}${r.pruned.length ? ` (older backups removed: ${r.pruned.join(", ")})` : ""}.`,
    ...(r.lost || r.end_lost.length
      ? [
          "Sync with your other homes or drives (`mindsave sync`) to bring back what they still hold of what was lost.",
        ]
      : []),
    ...recreatedText(r),
  ].join("\n");
}

/** Which snapshots the views show after the repair, and how that was decided. */
function listedText(r: RepairResult): string[] {
  const l = r.listed;
  if (!l) return [];
  const counts = `${l.listed} listed, ${l.archived} archived`;
  if (l.how === "carried") return [`Snapshots shown by default are as before: ${counts}.`];
  if (l.how === "none archived")
    return [`Snapshots shown by default: all ${l.listed} (the damaged store predates archiving).`];
  const why = l.read.error ?? (l.read.lost ? `${l.read.lost} of its rows lost` : "its end unreadable");
  return [
    `The list of snapshots shown by default could not be read whole (${why}), so retention chose them again, the newest ${DEFAULT_KEEP} per project (nothing deleted): ${counts}.`,
  ];
}

/** The projects made again, and how each finds its folder; lost roots, and how a folder finds its project. */
function recreatedText(r: RepairResult): string[] {
  const out: string[] = [];
  if (r.recreated.length) {
    out.push(
      `${r.recreated.length} project(s) had lost their own record and were made again from the rows that name them (a sync with a home or drive that still holds them brings back their own names):`,
    );
    for (const p of r.recreated) {
      out.push(
        p.root
          ? `  ${p.name} (${p.id}): its folder ${p.root} finds it again.`
          : `  ${p.name} (${p.id}): see it with \`mindsave snapshots list --in ${p.id}\`; to make it a folder's project, run \`mindsave projects link ${p.id}\` in that folder${p.last_seen_at ? ` (it was last at ${p.last_seen_at})` : ""}.${p.off ? " It is switched off: linking it keeps that folder off (or run `mindsave off` there)." : ""}`,
      );
    }
  }
  if ((r.tables.roots?.lost ?? 0) > 0 || r.end_lost.includes("roots")) {
    out.push(
      "Some projects' folders were lost: a folder finds its project again by its history the next time MindSave runs there; where several projects share that history, `mindsave projects attach PROJECT` in the folder says which it is.",
    );
  }
  return out;
}

/** The line under `backups:` naming those that hold the store as it was before `encrypt`, unencrypted. */
function plainBackupsLine(plain: string[]): string[] {
  if (!plain.length) return [];
  const [verb, it] = plain.length === 1 ? ["is", "it"] : ["are", "them"];
  return [
    `           ${plain.join(", ")} ${verb} not encrypted: what was saved before \`encrypt\`, readable by anyone with the file; delete ${it} once you no longer need ${it}`,
  ];
}
