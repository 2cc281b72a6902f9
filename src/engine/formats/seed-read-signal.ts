// Reading the original's signal.json: the fields the store keeps, and the base thresholds behind
// the file's effective ones.
import {
  COMPLEXITY_MULTIPLIER,
  CRITICAL_RANGE,
  GROWTH_MULTIPLIER,
  WARNING_RANGE,
  type Complexity,
  type Growth,
  type SignalState,
} from "../agents/signal.ts";
import { instant, isObj, type Obj } from "./seed-layout.ts";

const SIGNAL_FIELDS = new Set([
  "last_save",
  "last_auto_save_time",
  "last_auto_save_turn",
  "tool_calls_since_save",
  "auto_save_count",
  "trigger_reason",
  "pressure_state",
  "thresholds",
  "growth_rate",
  "complexity",
  "estimated_tokens_ratio",
]);

/** The raw fields of signal.json the store keeps; the derived ones (pressure, thresholds…) MindSave recomputes. */
export function signalFromFile(data: Obj, warnings: string[]): Partial<SignalState> {
  const out: Partial<SignalState> = {};
  const unknown = Object.keys(data).filter((k) => !SIGNAL_FIELDS.has(k));
  if (unknown.length)
    warnings.push(
      `signal.json: fields ${unknown.join(", ")} are not part of the spec's signal; not imported.`,
    );
  const time = (k: "last_save" | "last_auto_save_time") => {
    const t = instant(data[k]);
    if (Number.isFinite(t)) out[k] = new Date(t).toISOString();
    else if (data[k] !== undefined && data[k] !== null)
      warnings.push(`signal.json: ${k} ${JSON.stringify(data[k])} is not a time; not imported.`);
  };
  time("last_save");
  time("last_auto_save_time");
  const count = (k: "last_auto_save_turn" | "tool_calls_since_save" | "auto_save_count") => {
    const n = Number(data[k]);
    if (data[k] !== undefined && data[k] !== null && Number.isInteger(n) && n >= 0) out[k] = n;
  };
  count("last_auto_save_turn");
  count("tool_calls_since_save");
  count("auto_save_count");
  if (typeof data.trigger_reason === "string") out.trigger_reason = data.trigger_reason;
  const ratio = Number(data.estimated_tokens_ratio);
  if (data.estimated_tokens_ratio !== undefined && Number.isFinite(ratio) && ratio >= 0 && ratio <= 1)
    out.estimated_tokens_ratio = ratio;
  // The base thresholds behind the file's effective ones, when its multipliers are known.
  const g = data.growth_rate as Growth;
  const c = data.complexity as Complexity;
  if (isObj(data.thresholds) && g in GROWTH_MULTIPLIER && c in COMPLEXITY_MULTIPLIER) {
    const m = GROWTH_MULTIPLIER[g] * COMPLEXITY_MULTIPLIER[c];
    const w = Math.round((Number(data.thresholds.warning) / m) * 1000) / 1000;
    const k = Math.round((Number(data.thresholds.critical) / m) * 1000) / 1000;
    if (w >= WARNING_RANGE[0] && w <= WARNING_RANGE[1]) out.base_warning = w;
    if (k >= CRITICAL_RANGE[0] && k <= CRITICAL_RANGE[1]) out.base_critical = k;
  }
  return out;
}
