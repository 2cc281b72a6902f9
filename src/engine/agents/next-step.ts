// The next action of a mechanical snapshot, from the evidence a careful person would weigh, in this
// order: the plan's unfinished step (the agent's own task list: TodoWrite, update_plan, write_todos),
// what the agent's last message says comes next (announced, listed, offered, suggested, handed to
// the user, what is left), a request the user's last prompt put off for later, the user's last
// request the agent was still working on when the session stopped, the command that failed last
// with nothing said after it, and the next action of the task carried on (while the session has not
// done it: it changed no file, or stopped mid-turn). Without any of them,
// none: an untrue next action sends the agent that restores it the wrong way, an empty one tells
// it to decide from the state (the restore block says so).
import { isRule, ownWords, requestOf, sentencesOf, statedNextStep } from "./task-words.ts";

// Forward-looking words a heading opens with: "Next steps:", "Left to do:", "TODO:", "Follow-ups:",
// "接下来：", "后续：", "待办：".
const FORWARD_HEADING =
  /^(?:#+\s*)?(?:\*\*)?(?:next(?: steps?| up)?|remaining(?: steps?| work| items?| tasks?)?|(?:left|still) to do|to ?do|follow[- ]?ups?|open items|what'?s left|still open|接下来|下一步|后续(?:步骤|工作)?|待办(?:事项)?|还剩下?|剩下的?|还差|未完成)(?![a-z])[^:：]{0,30}[:：](?:\*\*)?\s*$/iu;
// A list item: "1. …", "2) …", "- …", "* …", "• …", "1、…".
const LIST_ITEM = /^\s*(?:\d+[.)]\s+|\d+、\s*|[-*•]\s+)(.+)$/u;

/** The first item of the list the reply gives under a forward-looking heading ("Next steps:\n1. …"), if any. */
export function listedStep(reply: string): string | null {
  const lines = reply.split("\n");
  for (let i = lines.length - 2; i >= 0; i--) {
    if (!FORWARD_HEADING.test(lines[i].trim())) continue;
    const item = LIST_ITEM.exec(lines[i + 1]);
    if (item) return capitalized(item[1]);
  }
  return null;
}

// The agent offering its next step, suggesting it, or handing it to the user: "Want me to add …?",
// "Should I also …?", "I'd suggest updating the spec next.", "It's ready for you to run terraform
// apply.", "The last thing is deleting the flag …", "Let me know if you want me to …".
const OFFERED_EN = [
  /^(?:(?:do you )?want me to|would you like me to|should I|shall I)\s+(?:also\s+|go ahead and\s+)?(.{6,}?)\??$/i,
  /\blet me know if you(?:'d like| want| would like) me to\s+(?:also\s+)?(.{6,}?)[.?]?$/i,
  /^I(?:'d| would)? (?:suggest|recommend)\s+(.{6,}?)(?:\s+next)?$/i,
  /\b(?:ready for you to|you can now|you(?:'ll| will) (?:need|want) to)\s+(.{4,})$/i,
  /^(?:the )?(?:last|only|one) (?:thing|step|piece|bit)(?: left| remaining| to do)? is\s+(.{6,})$/i,
  /^(?:(?:now|next),?\s+)?(?:I'm |I am )?moving on to\s+(.{6,})$/i,
  /^(?:I'll|I will|we'll|we will|I'm going to)\s+(.{6,}?)\s+next$/i,
];
// In Chinese the thing often sits in the clause before ("scripts/legacy 里还有两个脚本没动，需要你确认要不
// 要一起改"): the step keeps that clause.
const OFFERED_ZH = [
  /^(?:(.*)[，,])?(?:要不要|需不需要|是否需要|需要)我(?:顺便|也|再|一起|继续|接着)*(.{2,}?)吗?[？?]$/u,
  /^(?:(.*)[，,])?要不要(?:顺便|也|再|一起|继续|接着)*(.{2,}?)[？?]$/u,
  /^(?:(.*)[，,])?需要你(.{2,}?)[。.]?$/u,
  /^()(?:还)?剩(?:下)?(?:最后)?(?:一件事?|一个|一步|一项|一处)[：:，,]?\s*(.{2,}?)(?:还)?没(?:写|做|改|加|补|弄|实现|处理)完?[。.]?$/u,
];

/** A step as a sentence of its own: no closing mark, an English first word capitalized (not "scripts/legacy"). */
const capitalized = (s: string) => {
  const t = s.trim().replace(/[.。!！]$/u, "");
  return /^[a-z]+(?:\s|$)/.test(t) && !/\p{Script=Han}/u.test(t) ? t.charAt(0).toUpperCase() + t.slice(1) : t;
};

/** The step one sentence of the agent offers, suggests or hands over, if it does. */
function offeredIn(sentence: string): string | null {
  const s = sentence.replace(/[\u2018\u2019]/g, "'").replace(/[.。!！]+$/u, "");
  for (const re of OFFERED_EN) {
    const m = re.exec(s);
    if (m) return capitalized(m[1]);
  }
  for (const re of OFFERED_ZH) {
    const m = re.exec(s);
    if (m) return capitalized(m[1] ? `${m[1]}，${m[2]}` : m[2]);
  }
  return null;
}

/**
 * The next step the agent's last message gives: the list under its "Next steps:" heading, else the
 * last sentence that announces, offers, suggests or hands over a step, or says what is left.
 */
export function agentsNextStep(reply: string): string | null {
  const listed = listedStep(reply);
  if (listed) return listed;
  for (const s of sentencesOf(reply).reverse()) {
    const step = statedNextStep(s) ?? offeredIn(s);
    if (step) return step;
  }
  return null;
}

// A request put off for later: "Next time, add the same to the export.", "Tomorrow let's wire the
// webhook.", "We'll do the docs later.", "下次把导出也按筛选来导。", "回头再把文档补上。"
const LATER_FIRST_EN =
  /^(?:(?:ok(?:ay)?|good|great|fine|cool|nice|thanks)[,.!]?\s+)?(?:next(?: time)?|tomorrow|later|after (?:this|that)|afterwards|once (?:this|that|it)(?:'s| is) (?:done|merged|in))[,:]?\s+(?:(?:we|you)(?:'ll| will| can| should)\s+|let'?s\s+|please\s+)?(.{6,})$/i;
const LATER_LAST_EN =
  /^(?:(?:we|you)(?:'ll| will| can| should)|let'?s)\s+(.{6,}?)\s+(?:next(?: time)?|tomorrow|later|after (?:this|that))$/i;
const LATER_ZH = /^(?:下次|下回|明天|回头|之后|改天|等会儿?|待会儿?)(?:我们|咱们)?再?[，,]?\s*(.{2,})$/u;

/** The request the user's prompt puts off for later, its last such sentence (a rule is no request). */
export function deferredRequest(prompt: string): string | null {
  for (const sentence of sentencesOf(ownWords(prompt)).reverse()) {
    if (isRule(sentence)) continue;
    const s = sentence.replace(/[\u2018\u2019]/g, "'").replace(/[.。!！]+$/u, "");
    const m = LATER_FIRST_EN.exec(s) ?? LATER_LAST_EN.exec(s) ?? LATER_ZH.exec(s);
    if (m) return capitalized(m[1]);
  }
  return null;
}

// A later prompt's opener adding to the work ("Also rename it …", "And now …"): not the request's words.
const ADDED_ON = /^(?:(?:also|and|now|ok(?:ay)?|so)[,\s]+)+/i;

/**
 * The user's request the agent was still at when the session stopped (no reply closed the turn):
 * the asking sentences of the later prompt, its rules left out; null when it asks for nothing.
 */
export function unfinishedRequest(prompt: string): string | null {
  const asked = sentencesOf(ownWords(prompt))
    .filter((s) => !isRule(s))
    .flatMap((s) => requestOf(s.replace(ADDED_ON, "")) ?? []);
  return asked.length ? capitalized(asked.join(" ")) : null;
}

/** A command that failed as the session's last call, with its error's first line where known. */
export interface FailedCommand {
  command: string;
  error?: string;
}

/** The next action a failed last command leaves: getting it to pass. */
function fixOf(failed: FailedCommand): string {
  const cause = failed.error?.split("\n").find((l) => l.trim());
  return `Make \`${failed.command}\` pass${cause ? ` (it failed: ${cause.trim()})` : ""}`;
}

/** What the next action is read from: the plan's unfinished step, the last words of each side, the task carried on. */
export interface NextEvidence {
  /** The step in progress, else the first pending one. */
  planStep: string | null;
  /** The agent's reply that no tool call followed ("" when the session stopped mid-turn). */
  lastReply: string;
  /** The user's newest prompt after the one that named the task, if any. */
  laterPrompt: string | null;
  /** The session's last call, when it was a command that failed. */
  failed: FailedCommand | null;
  /** The next action of the snapshot this session carries on. */
  carried: string | null;
  /** Whether this session changed files (an edit, a patch). */
  changedFiles: boolean;
}

/** The next action by the order of evidence above; "" when nothing says what comes next. */
export function nextStepOf(e: NextEvidence): string {
  const midTurn = !e.lastReply;
  return (
    e.planStep ??
    agentsNextStep(e.lastReply) ??
    (e.laterPrompt ? deferredRequest(e.laterPrompt) : null) ??
    (midTurn && e.laterPrompt ? unfinishedRequest(e.laterPrompt) : null) ??
    (midTurn && e.failed ? fixOf(e.failed) : null) ??
    carriedStep(e) ??
    ""
  );
}

/**
 * The carried task's next action while it can still hold: nothing changed this session, or the
 * session stopped mid-turn. A session that changed files and closed its turn saying nothing of
 * what comes next has likely done that step: restored, it would send the agent to redo it.
 */
function carriedStep(e: NextEvidence): string | null {
  if (!e.carried || (e.changedFiles && e.lastReply)) return null;
  return e.carried;
}
