// Facts: beliefs about the world ("staging DB is read-only until Friday") with a confidence and a
// time to live. Fresh facts are restored; expired ones never are: `mindsave facts --stale` lists
// them to renew (confirm) or drop. Stating the same fact again renews it, keeping its confidence
// and time to live unless new ones are given.
import { UserError } from "../../errors.ts";
import { derivedId } from "../ids.ts";
import { redact } from "../snapshots/redact.ts";
import { stripControl, FIELD_MAX } from "../snapshots/input-limits.ts";
import { normaliseItem } from "../failures/graph.ts";
import { chooseItem } from "./choose.ts";
import { age, compareCodes, utcMinute } from "../../lib/text.ts";
import { inline } from "../snapshots/layers.ts";
import type { Session } from "../session.ts";
import { resolveProject } from "../projects/resolve.ts";
import type { FactConfidence, FactRecord } from "../../store/store.ts";

export const DEFAULT_FACT_TTL = "7d";
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "30m", "12h", "3d", "2w" → milliseconds; "never" → null (the fact does not expire). */
export function parseTtl(value: string | undefined): number | null {
  const v = (value ?? DEFAULT_FACT_TTL).trim().toLowerCase();
  if (v === "never" || v === "none" || v === "0") return null;
  const m = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/.exec(v);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2][0]] : NaN;
  if (!m || !(ms > 0) || ms > 3650 * UNIT_MS.d)
    throw new UserError(
      `--ttl must be like 30m, 12h, 3d or 2w (at most 10 years), or never; not ${JSON.stringify(value)}.`,
    );
  return Math.round(ms);
}

export function parseConfidence(value: string | undefined): FactConfidence {
  const c = (value ?? "medium").trim().toLowerCase();
  if (c !== "low" && c !== "medium" && c !== "high")
    throw new UserError(`--confidence must be low, medium or high, not ${JSON.stringify(value)}.`);
  return c;
}

/** A fact's id, from its scope, project and text: stating it again (here, elsewhere, by import) renews one record. */
export function factId(scope: "project" | "global", projectId: string | null, text: string): string {
  return derivedId("k", scope, projectId ?? "", normaliseItem(text));
}

export function isFresh(f: Pick<FactRecord, "expires_at">, now: Date): boolean {
  return f.expires_at === null || Date.parse(f.expires_at) > now.getTime();
}

const RANK: Record<FactConfidence, number> = { high: 3, medium: 2, low: 1 };

/** Fresh facts in the order the block keeps them: most sure, then most recently confirmed. */
export function freshFacts(facts: FactRecord[], now: Date): FactRecord[] {
  return facts
    .filter((f) => isFresh(f, now))
    .sort(
      (a, b) =>
        RANK[b.confidence] - RANK[a.confidence] ||
        compareCodes(b.confirmed_at, a.confirmed_at) ||
        compareCodes(a.id, b.id),
    );
}

/** "until 2026-11-26 05:49 UTC", or "with no expiry": what a command says of a fact it wrote. */
export function factExpiry(f: Pick<FactRecord, "expires_at">): string {
  return f.expires_at ? `until ${utcMinute(f.expires_at)}` : "with no expiry";
}

/** One fact as the restore block shows it. */
export function factLine(f: FactRecord, now: Date): string {
  const until = f.expires_at ? `, until ${utcMinute(f.expires_at)}` : "";
  return `- ${inline(f.text)} [${inline(f.confidence)}, stated ${age(f.confirmed_at, now, "long")}${until}]`;
}

/** The facts here (the project's and global ones), newest first, numbered from 1 in this order. */
export async function factsHere(session: Session): Promise<FactRecord[]> {
  const ctx = await resolveProject(session, { create: false });
  return session.store.listFacts(ctx?.project.id ?? null);
}

export interface FactOptions {
  ttl?: string;
  confidence?: string;
  scope?: "project" | "global";
}

export async function addFact(
  session: Session,
  text: string,
  o: FactOptions = {},
): Promise<{ fact: FactRecord; renewed: boolean }> {
  const clean = redact(stripControl(text)).trim();
  if (!clean)
    throw new UserError(
      'A fact needs its text, e.g. `mindsave fact "staging DB is read-only until Friday" --ttl 3d`.',
    );
  if (/[\r\n]/.test(clean)) throw new UserError("A fact is one line; state two facts instead.");
  if (clean.length > FIELD_MAX)
    throw new UserError(`A fact is at most ${FIELD_MAX} characters; this one is ${clean.length}.`);
  // Checked before the write; left out, a fact stated again keeps its own (span and confidence).
  const ttl = o.ttl === undefined ? undefined : parseTtl(o.ttl);
  const confidence = o.confidence === undefined ? undefined : parseConfidence(o.confidence);
  const scope = o.scope ?? "project";
  const now = session.now();
  return session.write(async (w) => {
    const ctx = scope === "project" ? await resolveProject(session, { create: true, w }) : null;
    const projectId = ctx?.project.id ?? null;
    const id = factId(scope, projectId, clean);
    const before = (await w.listFacts(projectId)).find((f) => f.id === id);
    const span = ttl !== undefined ? ttl : before ? lifespan(before) : parseTtl(DEFAULT_FACT_TTL);
    const fact = {
      id,
      project_id: projectId,
      scope,
      text: clean,
      confidence: confidence ?? before?.confidence ?? parseConfidence(undefined),
      created_at: before?.created_at ?? now.toISOString(),
      confirmed_at: now.toISOString(),
      expires_at: span === null ? null : new Date(now.getTime() + span).toISOString(),
    };
    await w.putFact(fact);
    return { fact: (await w.listFacts(projectId)).find((f) => f.id === id)!, renewed: !!before };
  });
}

/** The fact `key` names here: its number in `facts` or a piece of its text. */
async function factByKey(session: Session, key: string): Promise<FactRecord> {
  return chooseItem(await factsHere(session), key, {
    what: "fact",
    list: "mindsave facts",
    text: (f) => f.text,
    empty: 'There are no facts here yet; state one with `mindsave fact "…" --ttl 3d`.',
  });
}

/** How long a fact held when it was last confirmed (ms), or null: it never expires. */
function lifespan(f: Pick<FactRecord, "confirmed_at" | "expires_at">): number | null {
  if (!f.expires_at) return null;
  const span = Date.parse(f.expires_at) - Date.parse(f.confirmed_at);
  // A record that never held (synced or imported oddly) gets the default span, not an instant expiry.
  return span > 0 ? span : parseTtl(DEFAULT_FACT_TTL);
}

/** Confirms a fact again: stated now, with its old time to live (or the one given). */
export async function renewFact(session: Session, n: string, ttl?: string): Promise<FactRecord> {
  const f = await factByKey(session, n);
  const now = session.now();
  const span = ttl !== undefined ? parseTtl(ttl) : lifespan(f);
  const renewed = {
    ...f,
    confirmed_at: now.toISOString(),
    expires_at: span === null ? null : new Date(now.getTime() + span).toISOString(),
  };
  await session.write((w) => w.putFact(renewed));
  return renewed;
}

export async function dropFact(session: Session, n: string): Promise<FactRecord> {
  const f = await factByKey(session, n);
  await session.write((w) => w.tombstone("facts", f.id));
  return f;
}

/** How long until an instant: "40 min", "5 h", "3 days". */
function until(iso: string, now: Date): string {
  return age(now.toISOString(), new Date(Date.parse(iso)), "long").replace(/ ago$/, "");
}

/** "EXPIRED 2 days ago", "expires in 5 h" or "does not expire" (the list and the TUI say it alike). */
export function factState(f: Pick<FactRecord, "expires_at">, now: Date): string {
  return !isFresh(f, now)
    ? `EXPIRED ${age(f.expires_at!, now, "long")}`
    : f.expires_at
      ? `expires in ${until(f.expires_at, now)}`
      : "does not expire";
}

export function factsListText(facts: FactRecord[], now: Date, opts: { stale?: boolean } = {}): string {
  const shown = facts.map((f, i) => ({ f, n: i + 1 })).filter(({ f }) => !opts.stale || !isFresh(f, now));
  if (!shown.length) {
    return opts.stale
      ? "No expired facts here."
      : 'No facts here. State one with `mindsave fact "TEXT" [--ttl 3d] [--confidence high]`.';
  }
  const lines = shown.map(
    ({ f, n }) =>
      `${String(n).padStart(3)}. ${inline(f.text)}  [${inline(f.confidence)}, ${f.scope}, ${factState(f, now)}]`,
  );
  const hint = shown.some(({ f }) => !isFresh(f, now))
    ? [
        "",
        "Expired facts are never restored: `mindsave facts renew N [--ttl 3d]` confirms one, `mindsave facts drop N` removes it.",
      ]
    : [];
  return [...lines, ...hint].join("\n");
}
