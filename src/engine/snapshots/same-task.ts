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
