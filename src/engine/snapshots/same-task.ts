// Whether two goals name one task: what a session's mechanical snapshot carries over from the
// newest one, and whose constraints a save is told it leaves behind. Words compared, no model.

/** Whether a saved goal and a text (a new goal, a prompt) name one task: the same words, or one holding the other. */
export function sameTask(goal: string, text: string): boolean {
  const norm = (x: string) =>
    x
      .normalize("NFC")
      .toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/[\s.!?。！？]+$/u, "")
      .trim();
  const [a, b] = [norm(goal), norm(text)];
  return a === b || (a.length >= 12 && b.includes(a)) || (b.length >= 12 && a.includes(b));
}

/** Words that name no task by themselves. */
const LITTLE = new Set(
  "a an the to of for in on at by from into with and or is it its this that be as".split(" "),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A goal's words that name its task: Latin-script words but the little ones; in CJK text (no spaces), each two characters side by side. */
function taskWords(goal: string): Set<string> {
  const words = new Set<string>();
  const runs = goal
    .normalize("NFC")
    .toLowerCase()
    .replace(new RegExp(`${CJK.source}+`, "gu"), " $& ")
    .match(/[\p{L}\p{N}]+/gu);
  for (const run of runs ?? []) {
    if (!CJK.test(run)) {
      if (!LITTLE.has(run)) words.add(run);
    } else if (run.length === 1) words.add(run);
    else for (let i = 0; i + 1 < run.length; i++) words.add(run.slice(i, i + 2));
  }
  return words;
}

/**
 * Whether a new goal may carry on a saved one said differently: the same task, or nearly every word
 * of the shorter goal in the other ("Add JWT refresh to the auth service" / "Add JWT refresh to
 * auth service"). For a warning: a miss loses constraints from `load` silently, a false one costs a line.
 */
export function mayBeSameTask(goal: string, text: string): boolean {
  if (sameTask(goal, text)) return true;
  const [a, b] = [taskWords(goal), taskWords(text)];
  const shorter = Math.min(a.size, b.size);
  if (shorter < 2) return false;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / shorter >= 0.8;
}
