// Recall at the prompt: when a prompt names something the store knows (a failure, a fact, a
// standing rule, an archived snapshot's topic), the prompt hook adds a pointer of at most three
// lines saying where to look, within POINTER_TOKENS. Off with `mindsave config prompt-recall off`.
// Matching is the repeat warnings' (failures/repeat-warnings.ts): normalised words, English and
// Chinese; what is read is the project's facts and rules (a few) and the index's candidates.
import { heldShare, repeatedFailures, searchTerms, words } from "../failures/repeat-warnings.ts";
import { getSetting } from "../home/settings.ts";
import { resolveProject } from "../projects/resolve.ts";
import { countTokens } from "../snapshots/tokens.ts";
import { fit } from "../../lib/text.ts";
import type { Session } from "../session.ts";
import type { RepeatCheck } from "./repeat-warning.ts";

/** The pointer's limit, counted with cl100k as budgets are. */
export const POINTER_TOKENS = 100;
/** The archive is searched for this many of the prompt's words, the longest first. */
const SEARCHED_WORDS = 3;

interface Known {
  kind: "failure" | "fact" | "rule" | "archived snapshot";
  text: string;
  /** Where to look for it. */
  look: string;
}

/** A text of the store the prompt names: most of its words are in the prompt, two at least. */
const named = (text: string, said: Set<string>) => {
  const [held, share] = heldShare(words(text), said);
  return held >= 2 && share >= 0.5;
};

/** What the store knows that `prompt` names, a few of each kind; `check`, the prompt's repeat check. */
async function knownIn(session: Session, prompt: string, check: RepeatCheck): Promise<Known[]> {
  const ctx = await resolveProject(session, { create: false });
  const projectId = ctx?.project.id ?? null;
  const said = words(prompt);
  const found: Known[] = [];
  // A repeat warning names its failures already.
  if (!check.warning)
    for (const f of check.named ?? (await repeatedFailures(session.reader, projectId, prompt)))
      found.push({ kind: "failure", text: f.item, look: "`mindsave failures`" });
  for (const f of await session.reader.listFacts(projectId))
    if (named(f.text, said)) found.push({ kind: "fact", text: f.text, look: "`mindsave facts`" });
  for (const r of await session.reader.listRules(projectId))
    if (named(r.text, said)) found.push({ kind: "rule", text: r.text, look: "`mindsave rules`" });
  if (projectId) found.push(...(await archivedTopics(session, projectId, prompt)));
  return found;
}

/** Archived snapshots whose topic (their name's words) the prompt names, found through the search index. */
async function archivedTopics(session: Session, projectId: string, prompt: string): Promise<Known[]> {
  const said = words(prompt);
  const longest = searchTerms(prompt)
    .filter((t) => [...t].length >= 4)
    .sort((a, b) => [...b].length - [...a].length)
    .slice(0, SEARCHED_WORDS);
  const seen = new Set<string>();
  const out: Known[] = [];
  for (const term of longest)
    for (const hit of await session.reader.searchSnapshots(projectId, [term], 5)) {
      if (!hit.archived || seen.has(hit.id)) continue;
      seen.add(hit.id);
      const topic = hit.name.replace(/[-_]+/g, " ");
      const [held, share] = heldShare(words(topic), said);
      if (held >= 1 && share >= 0.75)
        out.push({ kind: "archived snapshot", text: hit.name, look: `\`mindsave recall ${term}\`` });
    }
  return out;
}

/** The pointer's two lines: what the prompt names (each name cut to `width` columns), where to look. */
function pointerText(found: Known[], width: number): string {
  const names = found.map((k) => `${k.kind} "${fit(k.text.replace(/\s+/g, " "), width)}"`).join("; ");
  const looks = [...new Set(found.map((k) => k.look))].join(", ");
  return `MindSave has memory this prompt names: ${names}.\nLook there before acting: ${looks}, or the MCP \`recall\` tool.`;
}

/** The pointer for `prompt`, or undefined (nothing named, or prompt-recall off); `check`, its repeat check. */
export async function recallPointer(
  session: Session,
  prompt: string,
  check: RepeatCheck,
): Promise<string | undefined> {
  if (!prompt.trim() || (await getSetting(session, "prompt-recall")) === "off") return undefined;
  const found = (await knownIn(session, prompt, check)).slice(0, 3);
  // Within the budget whatever the names hold: fewer names, shorter ones, never the where-to-look line.
  for (let n = found.length; n > 0; n--)
    for (const width of [60, 30]) {
      const text = pointerText(found.slice(0, n), width);
      if (countTokens(text) <= POINTER_TOKENS) return text;
    }
  return undefined;
}
