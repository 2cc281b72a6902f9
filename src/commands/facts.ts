// `mindsave fact TEXT [--ttl] [--confidence]`, `mindsave facts [--stale]`, `facts renew|drop N`.
import {
  addFact,
  dropFact,
  factExpiry,
  factsHere,
  factsListText,
  isFresh,
  parseConfidence,
  parseTtl,
  renewFact,
} from "../engine/memory/facts.ts";
import { parseScope } from "../engine/memory/rules.ts";
import { print, printJson, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";
import type { FactRecord } from "../store/store.ts";

const shown = (f: FactRecord, n: number, now: Date) => ({
  number: n,
  text: f.text,
  confidence: f.confidence,
  scope: f.scope,
  fresh: isFresh(f, now),
  confirmed_at: f.confirmed_at,
  expires_at: f.expires_at,
  id: f.id,
});

export async function add(
  opts: { ttl?: string; confidence?: string; scope?: string },
  args: string[],
  g: GlobalOptions,
): Promise<number> {
  const scope = parseScope(opts.scope);
  // Flags checked before the store is opened: a mistyped one on a fresh home starts no store.
  if (opts.ttl !== undefined) parseTtl(opts.ttl);
  if (opts.confidence !== undefined) parseConfidence(opts.confidence);
  return withSession(g, true, async (session) => {
    const { fact, renewed } = await addFact(session, args.join(" "), {
      ttl: opts.ttl,
      confidence: opts.confidence,
      scope,
    });
    // Its number in `mindsave facts` here, which `facts renew|drop N` takes.
    const number = (await factsHere(session)).findIndex((x) => x.id === fact.id) + 1;
    if (g.json) printJson({ fact: shown(fact, number, session.now()), renewed });
    else
      print(
        `${renewed ? "Renewed" : "Recorded"} ${fact.scope} fact (${fact.confidence}, ${factExpiry(fact)}): ${fact.text}`,
      );
    return 0;
  });
}

export async function list(opts: { stale?: boolean }, _a: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, false, async (session) => {
    const now = session.now();
    const facts = await factsHere(session);
    if (g.json)
      printJson({ facts: facts.map((f, i) => shown(f, i + 1, now)).filter((f) => !opts.stale || !f.fresh) });
    else print(factsListText(facts, now, { stale: opts.stale }));
    return 0;
  });
}

export async function renew(opts: { ttl?: string }, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const f = await renewFact(session, args[0], opts.ttl);
    const number = (await factsHere(session)).findIndex((x) => x.id === f.id) + 1;
    if (g.json) printJson({ renewed: shown(f, number, session.now()) });
    else print(`Renewed: ${f.text} (${factExpiry(f)}).`);
    return 0;
  });
}

export async function drop(_o: unknown, args: string[], g: GlobalOptions): Promise<number> {
  return withSession(g, true, async (session) => {
    const f = await dropFact(session, args[0]);
    if (g.json) printJson({ dropped: { text: f.text, id: f.id } });
    else print(`Dropped the fact: ${f.text}`);
    return 0;
  });
}
