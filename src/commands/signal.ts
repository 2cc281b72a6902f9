// `mindsave signal`: the adaptive pressure state; flags record what a hook or agent observed.
import { observeSignal, toSignalJson } from "../engine/agents/signal.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";
import type { SignalRow } from "../engine/agents/signal-row.ts";
import { utcMinute } from "../lib/text.ts";
import { offHere, offSentence } from "../engine/projects/off.ts";

interface SignalFlags {
  ratio?: number;
  toolCall?: number | true;
  turn?: boolean;
  baseWarning?: number;
  baseCritical?: number;
}

export async function run(opts: SignalFlags, _a: string[], g: GlobalOptions): Promise<number> {
  const changes =
    opts.ratio !== undefined ||
    opts.toolCall !== undefined ||
    opts.turn ||
    opts.baseWarning !== undefined ||
    opts.baseCritical !== undefined;
  return withSession(g, changes, async (session) => {
    const { signal, decision, project } = await observeSignal(session, {
      ratio: opts.ratio,
      toolCalls: opts.toolCall === true ? 1 : opts.toolCall,
      turn: opts.turn,
      baseWarning: opts.baseWarning,
      baseCritical: opts.baseCritical,
    });
    // Off, no hook feeds these figures: said first, so they are not read as an agent's context.
    const off = offSentence(await offHere(session), "measure, save and restore nothing");
    if (g.json) {
      // On, exactly the spec's signal.json; off, that said first.
      printJson({ ...(off ? { off: true, off_note: off } : {}), ...toSignalJson(signal) });
      return 0;
    }
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    print(
      [
        ...(off ? [off] : []),
        `Pressure ${signal.pressure_state} for ${project ?? "this workspace (no project yet)"}: context ${pct(signal.estimated_tokens_ratio)} full; warning at ${pct(signal.thresholds.warning)}, critical at ${pct(signal.thresholds.critical)}.`,
        `Growth ${signal.growth_rate}, complexity ${signal.complexity}; ${signal.tool_calls_since_save} tool call(s) since the last save (${signal.last_save ? utcMinute(signal.last_save) : "never"}).`,
        decision.action === "none"
          ? decision.cooling
            ? `An auto-save is due (${decision.reason}) but the cooldown holds it (5 minutes or 10 turns).`
            : "No auto-save needed."
          : decision.action === "emergency"
            ? redLine(signal)
            : `Auto-save due (${decision.reason}): save a Layer 1 checkpoint.`,
      ].join("\n"),
    );
    return 0;
  });
}

/** RED's line: what the hooks did when RED came (the emergency snapshot they saved, or that they saved none), or what to do. */
function redLine(signal: SignalRow): string {
  const at = signal.last_emergency_time;
  if (!at) return "RED: save Layer 1 now (`mindsave save --overflow …`) and start a new session.";
  const name = signal.last_emergency_snapshot;
  if (name)
    return `RED: the hooks saved an emergency Layer 1 snapshot, ${name}, at ${utcMinute(at)}; start a new session and restore it with \`mindsave load\`.`;
  if (name === null)
    return `RED since ${utcMinute(at)}: the hooks saved no emergency snapshot then (the newest one already held the task, or there was nothing to save); save Layer 1 if the task has moved on (\`mindsave save --overflow …\`) and start a new session.`;
  // A row from before the hooks noted the snapshot.
  return `RED since ${utcMinute(at)}: \`mindsave snapshots list\` shows whether the hooks saved an OVF_ snapshot then; start a new session and restore the task with \`mindsave load\`.`;
}
