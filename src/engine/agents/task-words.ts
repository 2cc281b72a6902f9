// What the user's prompts and the agent's last words say about the task, read without a model for
// the mechanical snapshot: the task apart from its constraints, the constraints and corrections
// stated on the way, and the next step the agent announced. English and Chinese.
import { foldDuplicates } from "../snapshots/constraint-hygiene.ts";

// The words that make a sentence a rule for the work (spec: constraints and decisions the user states).
const RULE_EN =
  /\b(?:never|don'?t|do not|doesn'?t|must(?:n'?t)?|always|only|avoid|instead of|no longer|not allowed)\b/i;
const RULE_ZH =
  /不要|不用|别|必须|只用|只能|只要|不对|我说的是|我的意思是|禁止|不能|不许|一定要|务必|避免|改用/u;

/** The sentences of a text, each with its closing mark (". ", "。", "!", "？", a line break). */
export function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?。！？\n]+(?:[.!?](?=\s|$)|[。！？]|\n|$)+/gu) ?? [])
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

// Not a rule for the work: a question, "don't save" (about MindSave), a pasted log or text.
const NO_SAVE = /\b(?:don'?t|do not|never)\s+(?:save|snapshot)\b|不要保存|别保存|不用保存/iu;
const RULE_MAX = 240;

/** A sentence that states a rule for the work: "Never use Redis for it", "只用 Postgres". */
export function isRule(sentence: string): boolean {
  const s = sentence.replace(/[\u2018\u2019]/g, "'");
  if (s.length > RULE_MAX || /[?？]$/u.test(s) || NO_SAVE.test(s)) return false;
  return RULE_EN.test(s) || RULE_ZH.test(s);
}

/**
 * The task a prompt names, without the rules it adds: "Add rate limiting to the login endpoint" from
 * "Add rate limiting to the login endpoint. Never use Redis for it: …". A prompt that is all rules,
 * or one sentence, is the task as written.
 */
export function taskOf(prompt: string): string {
  const sentences = sentencesOf(prompt);
  const task = sentences.filter((s) => !isRule(s));
  if (!task.length || task.length === sentences.length) return prompt;
  return task.join(" ").replace(/[.。]$/u, "");
}

/**
 * The rules the user stated across the session's prompts, each once, in order; a rule an earlier
 * snapshot or a noted correction already holds (its words inside this sentence) is not said twice.
 */
export function promptRules(prompts: readonly string[], known: readonly string[]): string[] {
  const held = known.map((k) => k.replace(/^User correction: /, "").trim()).filter((k) => k.length >= 4);
  const rules = prompts
    .flatMap(sentencesOf)
    .filter(isRule)
    .filter((s) => !held.some((k) => s.includes(k) || k.includes(s)));
  return foldDuplicates(rules).kept;
}

// The agent announcing its next step: "Next, I'll …", "Next step: …", "接下来…", "下一步…".
const NEXT_EN =
  /^(?:(?:next(?: step| up)?[:,]?\s+(?:(?:I'll|I will|we'll|we will|I'm going to|is to|is)\s+)?)|(?:(?:then|after that,?)\s+(?:I'll|I will|we'll|we will|I'm going to)\s+))(.{6,})/i;
const NEXT_ZH = /^(?:下一步|接下来|然后)(?:是|就是)?[：:，,]?\s*(?:我(?:会|将|要|再))?\s*(.{2,})/u;

/** The next step the agent's last message states, if any (its last such sentence). */
export function statedNextStep(reply: string): string | null {
  for (const s of sentencesOf(reply).reverse()) {
    const m = NEXT_EN.exec(s) ?? NEXT_ZH.exec(s);
    if (m) {
      const step = m[1].trim().replace(/[.。!！]$/u, "");
      return step.charAt(0).toUpperCase() + step.slice(1);
    }
  }
  return null;
}

/** A reply that says only that the turn ended ("done", "OK", "完成"): no news about the task. */
export function isBareReply(reply: string): boolean {
  return /^(?:done|all done|finished|complete[d]?|ok(?:ay)?|fixed|好了|完成了?|搞定了?|已完成|做完了)[\s.!。！~]*$/iu.test(
    reply.trim(),
  );
}
