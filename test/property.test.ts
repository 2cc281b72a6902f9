// Property-based tests (fast-check, seeded and bounded so every run is the same and quick): the
// snapshot parser, the slugger, the redactor, and the merge of two real stores. The fake secrets
// are built by concatenation so this file holds no token a secret scanner would flag.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compareText, printableAsciiOrder } from "../src/lib/text.ts";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../src/errors.ts";
import { fromFields, parseSnapshotText } from "../src/engine/snapshots/input.ts";
import { snapshotFile } from "../src/engine/snapshots/manage.ts";
import {
  isSafeName,
  isValidTopic,
  safeName,
  topicSlug,
  NAME_MAX,
  TOPIC_MAX,
} from "../src/engine/snapshots/slug.ts";
import { redact } from "../src/engine/snapshots/redact.ts";
import { Session } from "../src/engine/session.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { deleteById, setStatusById } from "../src/engine/snapshots/catalog.ts";
import { recordFailure, removeFailure } from "../src/engine/failures/record.ts";
import { syncWith } from "../src/engine/sync/sync.ts";
import { compareHlc } from "../src/store/hlc.ts";
import type { SnapshotRecord } from "../src/store/store.ts";
import { gitRepo, laptop, storeClient, tempDir } from "./helpers.ts";
import { replicatedRowsOf } from "./stores.ts";
import { anyCodePoint } from "./arbitraries.ts";
import { parsePlan, parsePlanText, planLine, planProgress } from "../src/engine/snapshots/plan.ts";
import { normalizeTags } from "../src/engine/snapshots/tags.ts";
import { parseTtl } from "../src/engine/memory/facts.ts";

/** Every property runs with a fixed seed: a failure is reproducible, and CI sees the same cases (PROPERTY_SEED=n explores others by hand). */
const SEED = Number(process.env.PROPERTY_SEED) || 20260511;
const run = <T>(p: fc.IProperty<T> | fc.IAsyncProperty<T>, numRuns: number) =>
  fc.assert(p as fc.IAsyncProperty<T>, { seed: SEED, numRuns, endOnFailure: true });

/** Text people put in snapshots: scripts, emoji, quotes, YAML's special characters, newlines. */
const PIECES = [
  "fix",
  "auth",
  "flow",
  "the",
  "login",
  "测试",
  "不要用Redux",
  "重构认证",
  "🚀",
  "👩‍💻",
  "✅",
  "é",
  "ﬁ",
  "İ",
  "ß",
  '"',
  "'",
  "`",
  ":",
  ": ",
  " #",
  "# ",
  "- ",
  "? ",
  "!",
  "&",
  "*",
  "%",
  "@",
  "|",
  ">",
  "{",
  "}",
  "[",
  "]",
  ",",
  "\\",
  "\\n",
  "\n",
  "\n\n",
  "\t",
  " ",
  "  ",
  "---",
  "...",
  "yes",
  "no",
  "null",
  "~",
  "true",
  "0x1F",
  "1e3",
  "012",
  "-1",
  ".inf",
  "2026-05-11",
  "<<",
  "=",
  "--",
  "https://example.com/a?b=c#d",
  "C:\\Users\\me",
  "\u00a0",
  "\u3000",
];
const piecesText = (max: number) =>
  fc.array(fc.constantFrom(...PIECES), { maxLength: max }).map((xs) => xs.join(""));
/** A field as `text()` reads it back: trimmed, never empty. */
const field = piecesText(12)
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
const fieldList = fc.array(field, { maxLength: 4 });
/** Keys a person or another tool may write, prototype names included. */
const extraKey = fc.oneof(
  fc.constantFrom(
    "notes",
    "priority",
    "测试字段",
    "a: b",
    "x y",
    "🚀",
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "__proto__",
    "0",
    "-",
    "#tag",
  ),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }).filter((k) => !/\p{Cc}/u.test(k)),
);
const KNOWN_FIELDS = new Set([
  "snapshot_id",
  "created_at",
  "version",
  "goal",
  "state",
  "next_action",
  "active_files",
  "blocker",
  "constraints",
  "decisions",
  "failure_graph",
  "excluded_paths",
  "auto_trigger",
  "status",
  "topic",
  "layer3",
  "_compressed",
  "plan",
  "tags",
]);
/**
 * Not generated: a multi-line string whose first line is only blanks, which the `yaml` package
 * writes as a block scalar that reads back without them (eemeli/yaml#692; text fields are trimmed).
 */
const yamlSafeText = piecesText(6).filter((s) => !/^\n*[\t ]+(?:\n|$)/.test(s) || !s.includes("\n"));
const extraValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    yamlSafeText,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b c", "中", "d: e"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

const record = fc.record({
  name: fc.stringMatching(/^[a-z0-9_]{1,12}_2026-05-1[0-9]$/),
  status: fc.constantFrom("in_progress", "completed", "blocked") as fc.Arbitrary<SnapshotRecord["status"]>,
  goal: field,
  state: field,
  next_action: field,
  blocker: field,
  active_files: fieldList,
  constraints: fieldList,
  decisions: fieldList,
  failure_graph: fc.dictionary(
    field,
    fc.record(
      { reason: field, rejected_by: fc.constantFrom("user", "agent"), alternatives: fieldList },
      { requiredKeys: ["reason"] },
    ),
    { maxKeys: 3 },
  ),
  layer3: piecesText(20).map((s) => s.trim()),
  auto_trigger: fc.option(fc.record({ reason: field, tokens: fc.nat() }), { nil: null }),
  extra: fc.option(
    fc.dictionary(
      extraKey.filter((k) => !KNOWN_FIELDS.has(k)),
      extraValue,
      { minKeys: 1, maxKeys: 4 },
    ),
    { nil: null },
  ),
  // The agent's plan, kept verbatim with its statuses (and any other key a todo list carries).
  plan: fc.option(
    fc.array(
      fc.record(
        {
          content: field,
          status: fc.constantFrom("pending", "in_progress", "completed"),
          activeForm: field,
          priority: fc.constantFrom("high", "low"),
        },
        { requiredKeys: ["content", "status"] },
      ),
      { minLength: 1, maxLength: 5 },
    ),
    { nil: null },
  ),
  tags: fc.array(fc.stringMatching(/^[a-z0-9-]{1,10}$/), { maxLength: 3 }),
});

function asRecord(r: typeof record extends fc.Arbitrary<infer T> ? T : never): SnapshotRecord {
  return {
    ...r,
    id: "0190-id",
    project_id: "p",
    topic: "t",
    kind: "full",
    created_at: "2026-05-11T12:00:00.000Z",
    version: "3.5",
    active_files: r.active_files.map((path) => ({ path })),
    compressed: null,
    l1_tokens: 1,
    l2_tokens: 0,
    saved_host: "h",
    saved_root: null,
    saved_agent: null,
    hlc: "",
    host: "h",
    deleted: 0,
  } as unknown as SnapshotRecord;
}

/** Only UserErrors may come out of reading a person's snapshot; anything else is a bug of ours. */
function onlyUserErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof UserError))
      throw new Error(`not a UserError: ${(e as Error)?.stack ?? e}`, { cause: e });
  }
}

describe("the snapshot parser", () => {
  test("arbitrary text, YAML-looking text and field values: a snapshot or a UserError, nothing else", async () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          ...PIECES,
          "goal: ",
          "\ngoal: x",
          "&a ",
          "*a",
          "!!binary ",
          "!!set ",
          "!!omap ",
          "!!map ",
          "? ",
          "<<: ",
          "[",
          "]",
          "{",
          "}",
          "\n- ",
          "\n  - ",
          "failure_graph: ",
          "constraints: ",
          "---\n",
          "\n---\n",
          "%YAML 1.2\n",
          "\uFEFF",
          "\r\n",
          "\u0000",
          "\u001b[31m",
        ),
        { maxLength: 40 },
      )
      .map((xs) => xs.join(""));
    await run(
      fc.property(fc.oneof(fc.string({ unit: anyCodePoint, maxLength: 200 }), yamlish), (text) =>
        onlyUserErrors(() => parseSnapshotText(text)),
      ),
      400,
    );
    await run(
      fc.property(
        fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_FIELDS), extraKey), fc.anything({ maxDepth: 3 }), {
          maxKeys: 6,
        }),
        fc.string({ maxLength: 40 }),
        (fields, body) => onlyUserErrors(() => fromFields(fields, body)),
      ),
      300,
    );
    // A document with thousands of aliases (a "billion laughs") is refused as a UserError too.
    const laughs = `goal: x\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n`;
    expect(() => parseSnapshotText(laughs)).toThrow(UserError);
  });

  test("a snapshot rendered in the spec's file format and parsed back keeps every field", async () => {
    // 100 cases: at this seed the renderer's and the parser's lines are all reached by 60 (bun test
    // --coverage: 60 and 300 cases cover the same lines, 30 miss secret-values.ts's); each case
    // renders and parses a whole snapshot: 300 of them cost over a third of this file's CPU.
    await run(
      fc.property(record, (r) => {
        const s = asRecord(r);
        const text = snapshotFile(s, r.active_files);
        const back = parseSnapshotText(text);
        const got = {
          snapshot_id: back.snapshot_id,
          status: back.status,
          goal: back.goal,
          state: back.state,
          next_action: back.next_action,
          blocker: back.blocker,
          active_files: back.active_files,
          constraints: back.constraints,
          decisions: back.decisions,
          failure_graph: back.failure_graph,
          layer3: back.layer3,
          auto_trigger: back.auto_trigger ?? null,
          extra: Object.keys(back.extra).length ? back.extra : null,
          plan: back.plan ?? null,
          tags: back.tags ?? [],
        };
        const want = {
          snapshot_id: r.name,
          status: r.status,
          goal: r.goal,
          state: r.state,
          next_action: r.next_action,
          blocker: r.blocker,
          active_files: r.active_files,
          constraints: r.constraints,
          decisions: r.decisions,
          failure_graph: r.failure_graph,
          layer3: r.layer3,
          auto_trigger: r.auto_trigger,
          extra: r.extra,
          plan: r.plan,
          tags: r.tags,
        };
        if (JSON.stringify(got) !== JSON.stringify(want)) expect({ text, got }).toEqual({ text, got: want });
      }),
      100,
    );
  });
});

describe("memory-over-weeks input", () => {
  test("plans, tags and time-to-live values: a result or a UserError, nothing else; a parsed plan keeps every step", async () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          ...PIECES,
          "- ",
          "\n- ",
          "content: ",
          "status: ",
          "done",
          "[x] ",
          "[>] ",
          "plan:\n",
          "todos:\n",
          "{",
          "}",
          "[",
          "]",
          "&a ",
          "*a",
        ),
        { maxLength: 30 },
      )
      .map((xs) => xs.join(""));
    await run(
      fc.property(fc.oneof(fc.string({ unit: anyCodePoint, maxLength: 200 }), yamlish), (text) =>
        onlyUserErrors(() => parsePlanText(text, "stdin")),
      ),
      300,
    );
    await run(
      fc.property(fc.anything({ maxDepth: 3 }), (value) =>
        onlyUserErrors(() => {
          const plan = parsePlan(value);
          // Every step has text and a known status; the progress line counts them all.
          for (const p of plan) expect(p.content.trim()).toBe(p.content);
          const pr = planProgress(plan);
          if (plan.length) expect(planLine(plan)).toStartWith(`plan ${pr.done}/${plan.length}`);
        }),
      ),
      300,
    );
    await run(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 80 }), { maxLength: 25 }), (tags) =>
        onlyUserErrors(() => {
          const out = normalizeTags(tags);
          expect(new Set(out.map((t) => t.toLowerCase())).size).toBe(out.length);
        }),
      ),
      300,
    );
    await run(
      fc.property(fc.string({ maxLength: 12 }), (ttl) => onlyUserErrors(() => parseTtl(ttl))),
      300,
    );
  });
});

describe("the slugger", () => {
  const anyText = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 60 }),
    fc.string({ unit: anyCodePoint, maxLength: 60 }),
    piecesText(15),
  );
  test("a topic slug is 1–20 letters, digits, marks or _, never empty, and a valid topic", async () => {
    await run(
      fc.property(anyText, (t) => {
        const slug = topicSlug(t);
        expect([...slug].length).toBeGreaterThan(0);
        expect([...slug].length).toBeLessThanOrEqual(TOPIC_MAX);
        expect(slug).toMatch(/^[\p{L}\p{N}\p{M}_]+$/u);
        expect(isValidTopic(slug)).toBe(true);
        expect(topicSlug(t)).toBe(slug);
      }),
      500,
    );
  });

  test("safeName always gives a safe name, the same one every time; safe names are fixed points", async () => {
    const hostile = fc.oneof(
      anyText,
      fc.constantFrom(
        "..",
        "../../etc/passwd",
        "CON",
        "con.md",
        "nul",
        "COM1",
        "LPT¹",
        "a.",
        ".hidden",
        "-x",
        "a/b",
        "a\\b",
        "a\u0000b",
        "",
      ),
      fc.string({ unit: fc.constantFrom("𝐀", "𝟙", "中", "a", ".", "-", "/"), maxLength: 140 }),
      // Letters outside the BMP are two UTF-16 units each: a rename must still fit NAME_MAX.
      fc.string({ unit: fc.constantFrom("𝐀", "𝟙", "𝒳"), minLength: 55, maxLength: 90 }).map((s) => `${s}/`),
    );
    const id = fc.oneof(fc.uuid(), fc.string({ maxLength: 12 }));
    await run(
      fc.property(hostile, id, (name, rid) => {
        const safe = safeName(name, rid);
        expect(isSafeName(safe)).toBe(true);
        expect(safe.length).toBeLessThanOrEqual(NAME_MAX);
        expect(safeName(name, rid)).toBe(safe);
        expect(safeName(safe, rid)).toBe(safe);
        if (isSafeName(name)) expect(safe).toBe(name);
      }),
      600,
    );
  });
});

describe("the redactor", () => {
  const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const chars = (alphabet: string, n: number) =>
    fc.string({ unit: fc.constantFrom(...alphabet), minLength: n, maxLength: n });
  /** Tokens of a secret's shape (with at least one of each character class, so they are not words). */
  const mixed = (n: number) => chars(ALNUM, n - 3).map((s) => `Q7k${s}`);
  const SK = "s" + "k";
  const secret = fc.oneof(
    mixed(36).map((s) => "gh" + "p_" + s),
    mixed(30).map((s) => SK + "_live_" + s),
    chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16).map((s) => "AK" + "IA" + s.replace(/^(.)(.)/, "Z7")),
    mixed(35).map((s) => "AI" + "za" + s),
    mixed(36).map((s) => "np" + "m_" + s),
    fc.tuple(mixed(30), mixed(60), mixed(43)).map(([a, b, c]) => `ey${"J"}${a}.ey${"J"}${b}.${c}`),
    mixed(20).map((s) => "gl" + "pat-" + s),
    chars("0123456789abcdef", 64).map((s) => "dop" + "_v1_" + s),
  );
  /** A secret in the sentences people write around one (assignments, headers, URLs, flags). */
  const SENTENCES = [
    "{s}",
    "TOKEN={s}",
    "password: {s}!",
    '{"api_key": "{s}"}',
    "Authorization: Bearer {s}",
    "curl -u me:{s}x https://x.io",
    "postgres://app:{s}@db:5432/x",
    "--password {s}",
    "export DB_PASSWORD={s}",
    "secret = '{s}'",
  ];
  const WORDS = [
    "fix",
    "the",
    "login",
    "flow",
    "token",
    "password",
    "secret",
    "key",
    "rotate",
    "on",
    "use",
    "author",
    "Jane",
    "api",
    "v1.2.3",
    "JWT-based",
    "docs",
    "测试",
    "认证",
    "重构",
    "不要用",
    "。",
    "，",
    "🚀",
  ];
  const SEPS = [" ", ", ", ". ", ": ", "; ", "\n", " - ", " / ", "（", "）", "「", "」", " = ", " (", ") "];
  const prose = fc
    .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { maxLength: 40 })
    .map((xs) => xs.flat().join(""));
  const withSecrets = fc
    .tuple(
      prose,
      fc.array(fc.tuple(fc.constantFrom(...SENTENCES), secret, prose), { minLength: 1, maxLength: 3 }),
    )
    .map(([head, parts]) => ({
      text: head + "\n" + parts.map(([s, tok, p]) => s.replaceAll("{s}", tok) + "\n" + p).join("\n"),
      secrets: parts.map(([, tok]) => tok),
    }));

  test("idempotent, and a secret once replaced never comes back", async () => {
    await run(
      fc.property(
        fc.oneof(
          withSecrets,
          prose.map((text) => ({ text, secrets: [] as string[] })),
          fc.string({ maxLength: 200 }).map((text) => ({ text, secrets: [] as string[] })),
        ),
        ({ text, secrets }) => {
          const once = redact(text);
          expect(redact(once)).toBe(once);
          for (const s of secrets) expect(once).not.toContain(s);
          // Redacting pieces of the output finds nothing new in them either.
          for (const line of once.split("\n")) expect(redact(line)).toBe(line);
        },
      ),
      300,
    );
  });

  /** A line that gives a secret's name one word (`password: rotate`) is a YAML key's value, redacted whatever its entropy. */
  const WORD_PASSWORD_LINE = /(?:^|\n)[ \t]*(?:token|password|secret)[ \t]*:[ \t]*\S+[ \t]*(?:\n|$)/;

  test("prose without a secret-like token (words, punctuation, CJK) is unchanged", async () => {
    await run(
      fc.property(
        prose.filter((text) => !WORD_PASSWORD_LINE.test(text)),
        (text) => expect(redact(text)).toBe(text),
      ),
      500,
    );
  });

  // A bound that catches catastrophic backtracking (minutes), not speed: the benchmark measures that.
  test("long inputs take bounded time", async () => {
    const nasty = fc.constantFrom(
      "password=",
      "a: ",
      "ey",
      "://a:",
      "@",
      "curl -u a:",
      "Bearer ",
      "-----BEGIN PRIVATE KEY-----\n",
      "AAAAAAAAAAAAAAAA\n",
      "--token ",
      '"',
      "=",
      "_",
      "x",
      "sk-proj-",
      "api_key",
    );
    await run(
      fc.property(
        fc.array(nasty, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 5_000, max: 40_000 }),
        (parts, length) => {
          const unit = parts.join("");
          const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
          const t0 = performance.now();
          redact(text);
          expect(performance.now() - t0).toBeLessThan(10_000);
        },
      ),
      25,
    );
  });
});

describe("the merge", () => {
  type Side = "a" | "b";
  type Op =
    | { op: "save"; on: Side; goal: string }
    | { op: "status"; on: Side; pick: number; status: SnapshotRecord["status"] }
    | { op: "delete"; on: Side; pick: number }
    | { op: "fail"; on: Side; item: string }
    | { op: "unfail"; on: Side; item: string }
    | { op: "sync"; on: Side };
  const side = fc.constantFrom<Side>("a", "b");
  const item = fc.constantFrom("Redux", "Tailwind", "SSR");
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      arbitrary: fc.record({
        op: fc.constant("save" as const),
        on: side,
        goal: fc.constantFrom("fix login", "重构认证 🚀", "ship: v2"),
      }),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        op: fc.constant("status" as const),
        on: side,
        pick: fc.nat(9),
        status: fc.constantFrom("in_progress", "completed", "blocked") as fc.Arbitrary<
          SnapshotRecord["status"]
        >,
      }),
      weight: 3,
    },
    { arbitrary: fc.record({ op: fc.constant("delete" as const), on: side, pick: fc.nat(9) }), weight: 2 },
    { arbitrary: fc.record({ op: fc.constant("fail" as const), on: side, item }), weight: 2 },
    { arbitrary: fc.record({ op: fc.constant("unfail" as const), on: side, item }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant("sync" as const), on: side }), weight: 1 },
  );

  test("random edits and deletes on two stores, then a sync both ways: both converge and every record keeps its newest write", async () => {
    const base = tempDir("mindsave-merge-");
    const repo = gitRepo(join(base, "repo"));
    let n = 0;
    const envOf = (s: Side, pc: ReturnType<typeof laptop>) => ({
      ...process.env,
      ...pc.env,
      MINDSAVE_HOST: `host-${s}`,
    });
    // Each side's new store, made once and copied into each run: its schema is made in ~40 ms, twice
    // a run. The two sides' stores are two (two store ids), as two laptops' are; no run meets another's.
    const fresh = new Map<Side, string>();
    const freshStore = async (s: Side) => {
      if (!fresh.has(s)) {
        const pc = laptop(`laptop-${s}`, join(base, "fresh"));
        const home = join(pc.home, ".mindsave");
        mkdirSync(home);
        await (await Session.open({ home, cwd: repo, env: envOf(s, pc) }, { write: true })).close();
        fresh.set(s, join(home, "mindsave.db"));
      }
      return fresh.get(s)!;
    };
    await run(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 12 }), async (ops) => {
        const dir = join(base, `run-${n++}`);
        const open = async (s: Side) => {
          const pc = laptop(`laptop-${s}`, dir);
          mkdirSync(join(pc.home, ".mindsave"));
          const db = join(pc.home, ".mindsave", "mindsave.db");
          copyFileSync(await freshStore(s), db);
          const session = await Session.open(
            { home: join(pc.home, ".mindsave"), cwd: repo, env: envOf(s, pc) },
            { write: true },
          );
          // The test's own connection to the file, held for the run: every read after a step goes through it.
          return { session, db, reader: await storeClient(db) };
        };
        const stores = { a: await open("a"), b: await open("b") };
        /** The newest version of every record ever written on either side, by clock. */
        const newest = new Map<string, Record<string, unknown>>();
        const observe = async (s: Side) => {
          for (const [key, row] of await replicatedRowsOf(stores[s].reader)) {
            const known = newest.get(key);
            // A project's first records (zero clocks, one per host that met it): the one made first wins.
            const first = (r: Record<string, unknown>) => String(r.hlc).startsWith("0000000000000-0000-");
            const firstMade =
              known &&
              key.startsWith("projects:") &&
              first(row) &&
              first(known) &&
              row.created_at !== known.created_at;
            const order = !known
              ? 1
              : firstMade
                ? String(row.created_at) < String(known.created_at)
                  ? 1
                  : -1
                : compareHlc(String(row.hlc), String(known.hlc));
            // One clock, one content: a write is never stamped with a clock another write has.
            if (order === 0) expect(row).toEqual(known!);
            if (order > 0) newest.set(key, row);
          }
        };
        const sync = (s: Side) => {
          const other = s === "a" ? "b" : "a";
          return syncWith(
            stores[s].session,
            { store: stores[other].session.store, location: stores[other].db, file: stores[other].db },
            { localLocation: stores[s].db },
          );
        };
        try {
          for (const o of ops) {
            const { session } = stores[o.on];
            const live = async () =>
              (
                await stores[o.on].reader.execute("SELECT id FROM snapshots WHERE deleted = 0 ORDER BY id")
              ).rows.map((r) => String(r.id));
            if (o.op === "save") await saveSnapshot(session, { input: fromFields({ goal: o.goal }) });
            else if (o.op === "status" || o.op === "delete") {
              const ids = await live();
              if (!ids.length) continue;
              const id = ids[o.pick % ids.length]!;
              if (o.op === "status") await setStatusById(session, id, o.status);
              else await deleteById(session, id);
            } else if (o.op === "fail")
              await recordFailure(session, { item: o.item, reason: `rejected on ${o.on}`, increment: true });
            else if (o.op === "unfail")
              await removeFailure(session, o.item).catch((e) => {
                if (!(e instanceof UserError)) throw e;
              });
            else await sync(o.on);
            await observe(o.on);
            if (o.op === "sync") await observe(o.on === "a" ? "b" : "a");
          }
          await sync("a");
          const [ra, rb] = [await replicatedRowsOf(stores.a.reader), await replicatedRowsOf(stores.b.reader)];
          expect(ra).toEqual(rb);
          // Nothing anyone wrote later is lost: every record is at its newest write on both sides.
          expect(ra).toEqual(new Map([...newest.entries()].sort(([x], [y]) => (x < y ? -1 : 1))));
          // A second sync finds nothing to do.
          const again = await sync("b");
          expect(again.read).toEqual({ from_peer: 0, from_here: 0 });
        } finally {
          stores.a.reader.close();
          stores.b.reader.close();
          await stores.a.session.close();
          await stores.b.session.close();
        }
      }),
      15,
    );
  }, 60_000);
});

describe("English collation of printable ASCII without ICU's collator", () => {
  const english = new Intl.Collator("en");
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
  // Texts over all of printable ASCII, over a few close characters (case, punctuation, digits), and
  // pairs that differ only in case or share a prefix: where an ordering rule would show.
  const text = (chars: string[]) =>
    fc.array(fc.constantFrom(...chars), { maxLength: 10 }).map((a) => a.join(""));
  const texts = fc.oneof(text(printable), text([..."aAbB -_.0"]), text([..."xXyY'\"()"]));
  const pair = fc.oneof(
    fc.tuple(texts, texts),
    texts.chain((a) => fc.tuple(fc.constant(a), fc.constant(a.replace(/[a-z]/g, (c) => c.toUpperCase())))),
    texts.chain((a) =>
      fc.tuple(
        fc.constant(a),
        texts.map((b) => a + b),
      ),
    ),
  );

  test('printableAsciiOrder gives Intl.Collator("en")\'s order; compareText the same for any text', () => {
    run(
      fc.property(pair, ([a, b]) => {
        expect(printableAsciiOrder(a, b)).toBe(Math.sign(english.compare(a, b)));
        expect(Math.sign(compareText(a, b))).toBe(Math.sign(english.compare(a, b)));
      }),
      3000,
    );
    run(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(Math.sign(compareText(a, b))).toBe(Math.sign(english.compare(a, b)));
      }),
      500,
    );
    expect(printableAsciiOrder("é", "e")).toBeNull();
  });
});
