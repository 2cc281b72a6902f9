// The spec's semantic triggers as hooks. user-prompt-submit reads what the user said: an ending
// ("done", "that's all", "结束", "先这样") saves now; a correction ("不对", "我说的是…", "no, I meant…",
// "that's wrong") becomes a constraint candidate for the next full snapshot; "don't save" ("不需要
// 保存", "别保存", "不用保存") turns auto-saving off for the session. post-tool-use-failure counts
// failed calls: the same command or target failing three times becomes a failure-graph candidate
// (rejected by the system), recorded with the next full snapshot unless it succeeds first.
// Both are quiet: they print nothing, but for a repeat warning (repeat-warning.ts) and a recall
// pointer (prompt-recall.ts), which are meant for the model.
import { recompute, recordToolCall } from "./signal.ts";
import { hookFacts, type HookOutcome, type HookPayload } from "./hook-payload.ts";
import { sessionNote, writeAuto } from "./auto-snapshot.ts";
import { logToolCalls } from "./ingest.ts";
import {
  addConstraint,
  callTarget,
  countFailure,
  noteOf,
  withNote,
  type SessionNote,
} from "./session-notes.ts";
import { getSignalRow, putSignalRow } from "./signal-row.ts";
import { redact, redactHead } from "../snapshots/redact.ts";
import { stripControl } from "../snapshots/input-limits.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";
import { CLAUDE_SOURCE } from "./kinds/claude.ts";
import { repeatWarningFor } from "./repeat-warning.ts";
import { recallPointer } from "./prompt-recall.ts";
import { canRead, factsFor } from "./kinds/trail.ts";
import type { TranscriptSource } from "./kinds/kind.ts";

export interface PromptSignals {
  /** The user is ending the session: save now. */
  ending: boolean;
  /** What the user corrected, without the "no," / "不对，" in front (null: not a correction). */
  correction: string | null;
  /** The user said not to save. */
  noSave: boolean;
}

// Whole-prompt endings only: "done" inside a sentence ("is the build done?") is not one.
const POLITE = String.raw`(?:ok(?:ay)?|thanks|thank you|great|好的?|好了|行|嗯|谢谢)`;
const ENDINGS = String.raw`(?:done|i'?m done|we'?re done|all done|that'?s all|that is all|that'?s all for (?:now|today)|that'?s it for (?:now|today)|let'?s stop here|stop here for (?:now|today)|结束|结束吧|先这样|先这样吧|就这样|就这样吧|今天就到这里|到此为止|收工)`;
const ENDING = new RegExp(
  String.raw`^(?:${POLITE}[\s,，.!！。~]*)*${ENDINGS}[\s,，.!！。~]*(?:${POLITE}[\s,，.!！。~]*)*$`,
  "iu",
);

// Corrections at the start of a prompt; the rest of the prompt is what was meant.
const CORRECTION_EN =
  /^(?:no+[,.!]?\s+(?=i meant|i said|that'?s not|not that|it should|use\b)|that'?s (?:wrong|not (?:it|right|what i (?:meant|asked|said)))[,.!:]?|that is (?:wrong|not what i (?:meant|asked|said))[,.!:]?|wrong[,.!:]|not what i (?:meant|asked|said)[,.!:]?|(?=i meant\b)|(?=what i meant (?:is|was)\b))\s*/i;
const CORRECTION_ZH =
  /^(?:不对(?!劲)|不是这样|错了|你理解错了|你搞错了)[\s,，.。!！:：]*|^(?=我说的是|我的意思是)/u;

// "Don't save" about MindSave, not about a file: the phrase ends the sentence or names the session.
const NO_SAVE_EN =
  /\b(?:don'?t|do not|no need to|needn'?t|never|please don'?t)\s+(?:auto-?)?save(?:\s+(?:anything|this(?:\s+(?:session|conversation|chat|one))?|the (?:session|conversation|chat|progress|state)|snapshots?|checkpoints?|progress|state|now|for now|it|please))?\s*(?:[.!,;]|$)|\b(?:no|stop)\s+(?:auto-?)?sav(?:e|ing)\s+(?:snapshots|checkpoints)\b|\bmindsave\b[^.]{0,40}\b(?:don'?t|do not|no need to|stop)\b|\b(?:don'?t|do not|stop)\b[^.]{0,20}\bmindsave\b/i;
const NO_SAVE_ZH =
  /(?:不需要|不用|别|不要|无需|没必要)(?:再)?(?:自动)?(?:保存|存档)(?:了|啦|吧|这次|本次|会话|进度|快照|状态|这个会话)?(?=$|[\s,，.。!！;；?？])/u;

export function readPrompt(prompt: string): PromptSignals {
  const text = prompt
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
  const noSave = NO_SAVE_EN.test(text) || NO_SAVE_ZH.test(text);
  const ending = text.length <= 60 && ENDING.test(text);
  let correction: string | null = null;
  const m = CORRECTION_EN.exec(text) ?? CORRECTION_ZH.exec(text);
  if (m) correction = text.slice(m[0].length).trim() || null;
  return { ending, correction, noSave };
}

/**
 * user-prompt-submit: a prompt proposing a rejected approach gets a repeat warning for the model,
 * one naming what the store knows a pointer to it (prompt-recall.ts);
 * a correction or "don't save" is noted for the session; an ending saves now.
 */
export async function onUserPromptSubmit(
  session: Session,
  p: HookPayload,
  src: TranscriptSource = CLAUDE_SOURCE,
): Promise<HookOutcome> {
  const prompt = typeof p.prompt === "string" ? stripControl(p.prompt).slice(0, 10_000) : "";
  const check = await repeatWarningFor(session, p, prompt);
  const { warning } = check;
  const pointer = await recallPointer(session, prompt, check);
  const outcome = await promptSignals(session, p, src, prompt);
  const context = [warning, pointer].filter(Boolean).join("\n\n");
  return context ? { ...outcome, context } : outcome;
}

/** What the user said about the session: a correction, "don't save", an ending. Quiet. */
async function promptSignals(
  session: Session,
  p: HookPayload,
  src: TranscriptSource,
  prompt: string,
): Promise<HookOutcome> {
  const said = readPrompt(prompt);
  if (!said.ending && !said.correction && !said.noSave) return {};
  const hook = hookFacts(p);
  const now = session.now();
  let note: SessionNote | null = null;
  if (hook.sessionId && (said.correction || said.noSave)) {
    note = await session.write(async (w) => {
      const ctx = await resolveProject(session, { create: true, w });
      let s = await getSignalRow(w, ctx.project.id);
      s = withNote(s, hook.sessionId, now, (n) => {
        let next = said.noSave ? { ...n, no_save: true } : n;
        if (said.correction) next = addConstraint(next, `User correction: ${redact(said.correction)}`);
        return next;
      });
      await putSignalRow(w, ctx.project.id, s);
      return noteOf(s, hook.sessionId);
    });
  }
  if (!said.ending || said.noSave) return {};
  // No work seen at the prompt (Copilot's transcript is not named there): it may be seen at the stop.
  const unseen: HookOutcome = { moment: "ending", workUnseen: true };
  if (!canRead(src, p)) return unseen;
  note ??= await sessionNote(session, hook.sessionId);
  if (note?.no_save) return {};
  // The spec's "user-ending": capture everything now (writeAuto skips a session the user said not to save).
  const facts = await factsFor(session, src, p);
  if (!facts.tool_uses.length) return unseen;
  await session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    await logToolCalls(w, ctx.project.id, facts, hook.sessionId, now);
  });
  const saved = await writeAuto(session, facts, hook, "user-ending", {});
  // A session with work to save: the ending is a moment to ask the agent for its checkpoint.
  return { ...(saved ? { saved: saved.snapshot.name } : {}), moment: "ending" };
}

/** The error's first two lines ("Exit code 1", then what went wrong), secrets redacted. */
function errorGist(error: unknown): string {
  const lines = stripControl(String(error ?? ""))
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  // Redacted before it is cut: a cut first could keep half a token.
  return redactHead(lines.slice(0, 2).join(" — "), 240);
}

/** post-tool-use-failure: counts the call and the failure (per command or target); quiet. */
export async function onPostToolUseFailure(session: Session, p: HookPayload): Promise<HookOutcome> {
  // An abort is not the tool's failure.
  if (p.is_interrupt === true) return {};
  const tool = stripControl(String(p.tool_name ?? ""));
  if (!tool) return {};
  const hook = hookFacts(p);
  const input = p.tool_input && typeof p.tool_input === "object" ? p.tool_input : {};
  const target = callTarget(tool, input);
  const now = session.now();
  await session.write(async (w) => {
    const ctx = await resolveProject(session, { create: true, w });
    let s = recordToolCall(await getSignalRow(w, ctx.project.id), now);
    if (!noteOf(s, hook.sessionId)?.no_save)
      s = withNote(s, hook.sessionId, now, (n) => countFailure(n, tool, target, errorGist(p.error)));
    await putSignalRow(w, ctx.project.id, recompute(s, now));
  });
  return {};
}
