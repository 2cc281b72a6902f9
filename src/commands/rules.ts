// `mindsave rules [add|list|edit|remove]`: standing rules, restored first in every block.
import {
  addRule,
  editRule,
  parseScope,
  removeRule,
  rulesHere,
  rulesListText,
  RULES_BUDGET,
} from "../engine/memory/rules.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";
import type { RuleRecord } from "../store/store.ts";

const shown = (rules: RuleRecord[]) =>
  rules.map((r, i) => ({ number: i + 1, text: r.text, scope: r.scope, id: r.id, created_at: r.created_at }));

export async function list(_o: unknown, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const { rules, tokens } = await rulesHere(session);
    if (g.json) printJson({ rules: shown(rules), tokens, budget: RULES_BUDGET });
    else print(rulesListText(rules, tokens));
    return 0;
  });
}

export async function add(opts: { scope?: string }, args: string[], g: GlobalOptions): Promise<number> {
  const scope = parseScope(opts.scope);
  return withSession(g, true, async (session) => {
    const { rule, rules, tokens } = await addRule(session, args.join(" "), scope);
    if (g.json)
      printJson({ added: shown(rules).find((r) => r.id === rule.id), tokens, budget: RULES_BUDGET });
    else
      print(
        `Added ${scope} rule ${rules.indexOf(rules.find((r) => r.id === rule.id)!) + 1}: ${rule.text} (rules now ${tokens}/${RULES_BUDGET} tokens).`,
      );
    return 0;
  });
}

export async function edit(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const { rule, number } = await editRule(session, args[0], args.slice(1).join(" "));
    if (g.json) printJson({ edited: { number, text: rule.text, scope: rule.scope, id: rule.id } });
    else print(`Rule ${number} is now: ${rule.text}`);
    return 0;
  });
}

export async function remove(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const rule = await removeRule(session, args[0]);
    if (g.json) printJson({ removed: { text: rule.text, scope: rule.scope, id: rule.id } });
    else print(`Removed ${rule.scope} rule: ${rule.text}`);
    return 0;
  });
}
