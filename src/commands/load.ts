// `mindsave load [ID|N] [--latest] [--verify]`: print the restore block.
import { UserError } from "../errors.ts";
import { restore, type LoadResult } from "../engine/snapshots/restore.ts";
import { sameNameLabels } from "../engine/snapshots/select.ts";
import { isAbsoluteAny, toHostPath } from "../engine/projects/paths.ts";
import { nextSteps } from "../engine/projects/next-steps.ts";
import { askUntil, note, print, printJson, withSession } from "./shared.ts";
import { offSentence, offState } from "../engine/projects/off.ts";
import { archivedLoadText, numberedList, verifyText } from "../engine/snapshots/summaries.ts";
import type { GlobalOptions } from "../types.ts";
import { requireProject } from "../engine/projects/resolve.ts";
import { listedCount } from "../engine/snapshots/catalog.ts";

export async function run(
  opts: { latest?: boolean; verify?: boolean; full?: boolean },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  return withSession(g, false, async (session) => {
    const ctx = await requireProject(session, () => nextSteps(session, null));
    const how = { latest: !!opts.latest, verify: opts.verify, full: opts.full };
    let sel = await restore(session, ctx, args[0], how);
    if (sel.kind === "none")
      throw new UserError(
        `No snapshots in project ${ctx.project.name} yet; save one with \`mindsave save\`${await nextSteps(session, ctx.project.id)}.`,
      );
    if (sel.kind === "choose") {
      // On a terminal each line fits its width; piped, a line is at most 120 columns.
      const list = numberedList(
        sel.choices,
        session.now(),
        process.stdout.isTTY ? process.stdout.columns || 80 : 120,
        await sameNameLabels(session, ctx.project.id, sel.choices),
        !!process.stdout.isTTY,
      );
      // The list is its first page; any number of the whole list loads.
      const count = await listedCount(session, ctx.project.id);
      if (g.json || !process.stdin.isTTY || !process.stdout.isTTY) {
        if (g.json)
          printJson({
            total: count,
            choose: sel.choices.map((c, i) => ({
              n: i + 1,
              id: c.name,
              created_at: c.created_at,
              status: c.status,
              goal: c.goal,
            })),
          });
        else print(`${list}\n\n${choicesText(sel.choices.length, count)}`);
        // Nothing was loaded, so nothing was verified or shown in full: said, not silently dropped.
        const flags = [how.verify && "--verify", how.full && "--full"].filter(Boolean).join(" ");
        if (flags)
          note(
            `${flags} applies to the snapshot loaded: \`mindsave load N ${flags}\` or \`mindsave load --latest ${flags}\`.`,
          );
        return 0;
      }
      print(count > sel.choices.length ? `${list}\n${choicesText(sel.choices.length, count)}` : list);
      const n = await askUntil(
        `Load which? [1-${count}, Enter = 1, q = quit] `,
        (a) => {
          if (a === "q") return 0;
          const choice = Number(a || "1");
          return Number.isInteger(choice) && choice >= 1 && choice <= count ? choice : undefined;
        },
        `Please answer a number from 1 to ${count}.`,
      );
      if (n === 0) return 0;
      sel = await restore(session, ctx, String(n), how);
    }
    if (sel.kind !== "restored") return 1;
    const result = sel.result;
    // A person loads as ever; they are told the agents' hooks get nothing here (the project is
    // the one found above: not looked up again).
    const off = offSentence(await offState(session, ctx.project.id));
    if (g.json) printJson({ ...(off ? { off: true, off_note: off } : {}), ...toJson(result) });
    else {
      if (result.archived) print(archivedLoadText("cli"));
      if (result.verify) print(verifyText(result.verify));
      print(result.block.text);
      if (off) note(off);
    }
    return 0;
  });
}

/** Under load's list: how many snapshots there are, and where the rest are when the list is a page. */
function choicesText(shown: number, count: number): string {
  const more =
    count > shown
      ? ` (the newest ${shown} above; \`mindsave snapshots list --page 2\` shows the next ones)`
      : "";
  return `${count} snapshots${more}. Load one with \`mindsave load N\` (or \`mindsave load --latest\`).`;
}

function toJson(r: LoadResult) {
  const s = r.snapshot;
  return {
    snapshot_id: s.name,
    id: s.id,
    created_at: s.created_at,
    status: s.status,
    kind: s.kind,
    project: { id: r.context.project.id, name: r.context.project.name, root: r.context.root },
    // saved_on: the laptop that saved it, when another one did; outside_project: active files kept
    // by an absolute path, which name places on that laptop, not on this one.
    saved_on: r.savedOn,
    layer1: {
      goal: s.goal,
      state: s.state,
      next_action: s.next_action,
      active_files: s.active_files.map((f) => toHostPath(f.path, r.context.root)),
      blocker: s.blocker,
    },
    outside_project: s.active_files
      .filter((f) => isAbsoluteAny(f.path))
      .map((f) => toHostPath(f.path, r.context.root)),
    layer2: {
      constraints: r.layer2.constraints,
      decisions: r.layer2.decisions,
      compressed: r.layer2.compressed?.symbolic ?? {},
    },
    failures: r.block.failures.map((f) => ({
      item: f.item,
      reason: f.reason,
      rejected_by: f.rejected_by,
      repeat_count: f.repeat_count,
      scope: f.scope,
      alternatives: f.alternatives,
      related: f.related,
    })),
    rules: r.rules.map((x) => ({ text: x.text, scope: x.scope })),
    facts: r.facts.map((f) => ({
      text: f.text,
      scope: f.scope,
      confidence: f.confidence,
      expires_at: f.expires_at,
    })),
    plan: s.plan ?? [],
    tags: s.tags,
    restore_block: r.block.text,
    tokens: r.block.tokens,
    budget: r.block.budget,
    omitted: r.block.omitted,
    archived: r.archived,
    ...(r.verify ? { verify: r.verify } : {}),
  };
}
