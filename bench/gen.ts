// The benchmark's data: a seeded, realistic set of projects in the original skill's `.mindsave/`
// layout, imported into one store through the real CLI (`mindsave import`), the exported trees the
// file-based baselines read, 10,000- and 1,000-snapshot trees for the import benchmark, the big
// one imported by a second host (the sync peer), a Claude Code transcript for the hooks.
// Everything is cached under .bench/ keyed by GEN_VERSION, the config and the schema version, so
// a rerun only copies the store.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Bump when the generated data changes shape: the cache key includes it. */
export const GEN_VERSION = 1;

export interface GenConfig {
  projects: number;
  snapshots: number;
  failures: number;
  /** Snapshots in the one-project tree that `import` and `export` are measured on. */
  bigSnapshots: number;
  /** A smaller tree, measured first: when the engine is too slow for the big one within the time budget, only this one is. */
  midSnapshots: number;
  transcriptBytes: number;
  seed: number;
}

export const FULL: GenConfig = {
  projects: 50,
  snapshots: 10_000,
  failures: 2_000,
  bigSnapshots: 10_000,
  midSnapshots: 1_000,
  transcriptBytes: 5 * 1024 * 1024,
  seed: 20261123,
};
/**
 * The store sizes `bun run bench --sizes` measures: the same 50 projects and the same failure
 * share (one failure per five snapshots, a fifth of them global). Only 10k carries the import,
 * export and sync trees (the size-independent measurements); 0 means none.
 */
export const SIZES: Record<string, GenConfig> = {
  "1k": { ...FULL, snapshots: 1_000, failures: 200, bigSnapshots: 0, midSnapshots: 0 },
  "10k": FULL,
  "100k": { ...FULL, snapshots: 100_000, failures: 20_000, bigSnapshots: 0, midSnapshots: 0 },
};
export const TINY: GenConfig = {
  projects: 3,
  snapshots: 20,
  failures: 12,
  bigSnapshots: 20,
  midSnapshots: 5,
  transcriptBytes: 64 * 1024,
  seed: 20261123,
};

/** Searched for by `recall`: in about one snapshot in 500, and in about half of them. */
export const RARE_WORD = "zeppelin";
export const COMMON_WORD = "regression";

// ---------------------------------------------------------------------------------------------
// A small seeded PRNG (mulberry32): the same config gives the same files on every machine.

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const VERBS = [
  "Add",
  "Fix",
  "Refactor",
  "Migrate",
  "Speed up",
  "Document",
  "Remove",
  "Split",
  "Harden",
  "Rewrite",
  "Test",
  "Cache",
  "Validate",
  "Port",
  "Simplify",
];
const THINGS = [
  "JWT refresh",
  "session store",
  "billing webhook",
  "search index",
  "CSV export",
  "retry policy",
  "rate limiter",
  "image resizer",
  "feature flags",
  "audit log",
  "OAuth callback",
  "cron scheduler",
  "email templates",
  "GraphQL resolver",
  "upload pipeline",
  "cache layer",
  "config loader",
  "payment form",
  "websocket relay",
  "i18n bundle",
];
const PLACES = [
  "in the auth service",
  "for the admin dashboard",
  "behind the API gateway",
  "in the worker queue",
  "for mobile clients",
  "in the checkout flow",
  "across the monorepo",
  "in the CLI",
  "for the public API",
  "in the reporting job",
];
const STATES = [
  "endpoint written, two tests red",
  "half the call sites moved",
  "design agreed, nothing coded yet",
  "passing locally, CI flaky on Windows",
  "benchmarks show 30% less latency",
  "schema drafted, migration pending review",
  "prototype works behind a flag",
  "blocked on a reply from the platform team",
  "all unit tests green, e2e pending",
  "profiling shows the hot path in JSON parsing",
];
const NEXTS = [
  "fix the clock skew in the expiry test",
  "write the migration and run it on staging",
  "split the handler into read and write paths",
  "add a property test for the parser",
  "ask the platform team about the quota",
  "measure again with a cold cache",
  "remove the old code path and its flag",
  "update the docs and the changelog",
  "wire the retry into the client",
  "review the diff and open the pull request",
];
const BLOCKERS = [
  "waiting for staging credentials",
  "CI runner out of disk",
  "upstream API returns 500 on sandbox",
  "design review not scheduled",
  "flaky integration test hides the real failure",
];
const CONSTRAINTS = [
  "no new runtime dependencies",
  "keep the public API backwards compatible",
  "must run on Node 18 and Bun",
  "no tailwind, plain CSS modules",
  "every query goes through the repository layer",
  "keep p95 latency under 200 ms",
  "do not touch the legacy billing tables",
  "tests must not hit the network",
  "prefer composition over inheritance",
  "logs never contain personal data",
  "migrations must be reversible",
  "use the existing HTTP client, not fetch directly",
  "support Postgres 13 and later",
  "feature work goes behind a flag",
  "keep bundle size under 250 KB",
];
const DECISIONS = [
  "rotate refresh tokens on every use",
  "use polling, not websockets",
  "store money as integer cents",
  "validate input with zod at the edge",
  "keep one SQLite file per tenant",
  "retry with exponential backoff and jitter",
  "generate ids as UUIDv7",
  "cache for 60 s with stale-while-revalidate",
  "render emails server-side with MJML",
  "run cron jobs in the worker, not the web process",
  "keep the old endpoint for one release",
  "split reads and writes into two services",
];
const FAILS = [
  "websocket reconnect",
  "localStorage for tokens",
  "global mutex in the scheduler",
  "ORM lazy loading",
  "moment.js for dates",
  "shared test database",
  "regex HTML parser",
  "polling every 100 ms",
  "client-side PDF rendering",
  "eval in the template engine",
  "synchronous file IO in the handler",
  "one giant migration",
  "mocking the HTTP client everywhere",
  "storing sessions in memory",
  "float math for prices",
  "deep cloning with JSON",
  "catching every exception",
  "nested transactions in SQLite",
  "threads for CPU-bound parsing",
  "hand-written YAML emitter",
];
const REASONS = [
  "corporate proxy drops idle sockets",
  "XSS exposure",
  "deadlocks under load",
  "N+1 queries on the list page",
  "bundle size doubled",
  "tests interfere with each other",
  "breaks on nested tags",
  "hammers the database",
  "too slow on old phones",
  "security review rejected it",
  "blocks the event loop",
  "could not be rolled back",
  "tests passed but production broke",
  "lost on every deploy",
  "rounding errors in invoices",
  "loses dates and Maps",
  "hid a real bug for a week",
  "SQLite has no nested transactions",
  "GC pauses got worse",
  "quoting bugs in edge cases",
];
const ALTS = [
  "long polling",
  "httpOnly cookie",
  "per-job lock rows",
  "explicit joins",
  "date-fns",
  "a database per test file",
  "a real HTML parser",
  "server-sent events",
  "server-side rendering",
  "a sandboxed template",
  "streams",
  "small reversible steps",
  "a fake server",
  "the session table",
  "integer cents",
  "structuredClone",
  "typed errors",
  "savepoints",
  "a worker pool",
  "the yaml library",
];
const WORDS = [
  "the",
  "handler",
  "returns",
  "cache",
  "after",
  "timeout",
  "request",
  "token",
  "expired",
  "middleware",
  "logs",
  "parser",
  "queue",
  "worker",
  "retries",
  "payload",
  "schema",
  "column",
  "index",
  "query",
  "latency",
  "fixture",
  "snapshot",
  "client",
  "server",
  "config",
  "deploy",
  "branch",
  "commit",
  "review",
  "because",
  "when",
  "then",
  "with",
  "without",
  "before",
  "should",
  "could",
  "never",
  "always",
  "batch",
  "stream",
  "buffer",
  "encoder",
  "decoder",
  "mutex",
  "deadline",
  "tenant",
  "invoice",
  "webhook",
  "signature",
  "header",
  "cookie",
  "session",
  "upload",
  "bucket",
  "thumbnail",
  "metric",
  "alert",
  "dashboard",
  "flag",
  "rollout",
  "canary",
  "replica",
  "shard",
  "vacuum",
  "checkpoint",
  "journal",
  "trigger",
  "view",
];
const DIRS = [
  "src",
  "src/api",
  "src/auth",
  "src/db",
  "src/jobs",
  "src/lib",
  "src/ui",
  "test",
  "scripts",
  "config",
];
const FILES = [
  "index",
  "handler",
  "client",
  "schema",
  "routes",
  "worker",
  "queue",
  "cache",
  "config",
  "utils",
  "session",
  "token",
  "billing",
  "export",
  "search",
  "upload",
  "mailer",
  "metrics",
  "flags",
  "retry",
];
const EXTS = [".ts", ".ts", ".ts", ".tsx", ".sql", ".json", ".md"];
const NAME_A = [
  "shop",
  "billing",
  "auth",
  "search",
  "media",
  "admin",
  "mail",
  "report",
  "mobile",
  "gateway",
  "ledger",
  "notify",
  "catalog",
  "checkout",
  "analytics",
  "infra",
  "docs",
  "cli",
  "sync",
  "chat",
];
const NAME_B = ["api", "web", "worker", "service", "app", "jobs", "core", "sdk", "portal", "engine"];

function sentence(r: Rand, words = int(r, 8, 18), extra?: string): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(r, WORDS));
  if (extra) out.splice(int(r, 1, out.length - 1), 0, extra);
  const s = out.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

const filePath = (r: Rand) => `${pick(r, DIRS)}/${pick(r, FILES)}${pick(r, EXTS)}`;

/** Layer 3: a markdown archive of about `target` bytes, with the search words where asked. */
function layer3(r: Rand, target: number, words: string[]): string {
  const parts: string[] = [];
  let size = 0;
  const push = (s: string) => {
    parts.push(s);
    size += s.length + 2;
  };
  const pending = [...words];
  const withWord = () => (pending.length && r() < 0.3 ? pending.shift() : undefined);
  push(
    "### Completed Steps\n" +
      Array.from(
        { length: int(r, 2, 6) },
        (_, i) => `${i + 1}. ${sentence(r, int(r, 5, 10), withWord())}`,
      ).join("\n"),
  );
  while (size < target) {
    const kind = r();
    if (kind < 0.45)
      push(
        "### Notes\n" +
          Array.from({ length: int(r, 3, 7) }, () => sentence(r, undefined, withWord())).join(" "),
      );
    else if (kind < 0.7) {
      const lines = Array.from({ length: int(r, 6, 30) }, () => {
        const f = pick(r, FILES);
        return pick(r, [
          `const ${f} = await load${f[0].toUpperCase()}${f.slice(1)}(req.${pick(r, WORDS)});`,
          `if (!${f}) throw new Error("${pick(r, WORDS)} ${pick(r, WORDS)}");`,
          `export function ${f}(${pick(r, WORDS)}: string) {`,
          `  return ${pick(r, WORDS)}.${pick(r, WORDS)}(${f});`,
          "}",
        ]);
      });
      push("### Code\n```ts\n" + lines.join("\n") + "\n```");
    } else if (kind < 0.85) {
      const lines = Array.from(
        { length: int(r, 4, 20) },
        () => `${r() < 0.8 ? "PASS" : "FAIL"} ${filePath(r)} (${int(r, 2, 900)} ms)`,
      );
      push("### Test Output\n```\n" + lines.join("\n") + "\n```");
    } else {
      push(
        "### Diff\n" +
          Array.from(
            { length: int(r, 2, 8) },
            () => `- ${filePath(r)}: +${int(r, 1, 120)} -${int(r, 0, 80)}`,
          ).join("\n"),
      );
    }
  }
  // Words not placed yet go into a last note, so every asked-for word is there.
  if (pending.length) push("### Notes\n" + pending.map((w) => sentence(r, 8, w)).join(" "));
  return parts.join("\n\n");
}

const q = (v: unknown) => JSON.stringify(v);

export interface GeneratedSnapshot {
  id: string;
  created: Date;
  text: string;
  words: string[];
}

/** One snapshot file in the spec's template (YAML front matter in JSON flow style, markdown body). */
export function snapshotText(
  r: Rand,
  opts: { id: string; created: Date; status: string; failures: string[]; words: string[]; l3Bytes: number },
): string {
  const blocked = opts.status === "blocked";
  const goal = `${pick(r, VERBS)} ${pick(r, THINGS)} ${pick(r, PLACES)}`;
  const files = Array.from({ length: int(r, 1, 6) }, () => filePath(r));
  const constraints = Array.from(new Set(Array.from({ length: int(r, 0, 5) }, () => pick(r, CONSTRAINTS))));
  const decisions = Array.from(new Set(Array.from({ length: int(r, 0, 4) }, () => pick(r, DECISIONS))));
  const fg: Record<string, unknown> = {};
  for (const item of opts.failures) {
    const i = FAILS.indexOf(item.replace(/ #\d+$/, ""));
    fg[item] = {
      rejected_by: r() < 0.5 ? "user" : "system",
      reason: REASONS[Math.max(0, i)],
      repeat_count: int(r, 1, 3),
      alternatives: [ALTS[Math.max(0, i)]],
    };
  }
  const lines = [
    "---",
    `snapshot_id: ${q(opts.id)}`,
    `created_at: ${q(opts.created.toISOString())}`,
    `version: "3.5"`,
    `status: ${opts.status}`,
    `goal: ${q(goal)}`,
    `state: ${q(pick(r, STATES))}`,
    `next_action: ${q(pick(r, NEXTS))}`,
    `active_files: ${q(files)}`,
    `blocker: ${q(blocked ? pick(r, BLOCKERS) : "none")}`,
  ];
  if (constraints.length) lines.push(`constraints: ${q(constraints)}`);
  if (decisions.length) lines.push(`decisions: ${q(decisions)}`);
  if (opts.failures.length) lines.push(`failure_graph: ${q(fg)}`);
  lines.push("---", "", layer3(r, opts.l3Bytes, opts.words), "");
  return lines.join("\n");
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "")
    .slice(0, 20)
    .replace(/_$/, "");
}

export interface TreeSpec {
  dir: string;
  projectId: string;
  name: string;
  snapshots: number;
  projectFailures: number;
  globalFailures: number;
  /** First global failure number (global items are numbered across projects, so each is unique). */
  globalBase: number;
  seed: number;
  now: Date;
  /** Index of the snapshot that must hold the rare word (so even a tiny store has one hit). */
  forceRare?: number;
}

/** Writes `{dir}/.mindsave/` (project.json, snapshots/, index.json, failure_graph/) in the original's layout. */
export function writeTree(t: TreeSpec): void {
  const r = rng(t.seed);
  const root = join(t.dir, ".mindsave");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, "snapshots"), { recursive: true });
  mkdirSync(join(root, "failure_graph", "project"), { recursive: true });
  mkdirSync(join(root, "failure_graph", "global"), { recursive: true });
  writeFileSync(
    join(root, "project.json"),
    JSON.stringify({ id: t.projectId, name: t.name, created_at: "2025-11-01T00:00:00.000Z" }, null, 2) + "\n",
  );

  const projectItems = Array.from({ length: t.projectFailures }, (_, i) =>
    i < FAILS.length ? FAILS[i] : `${FAILS[i % FAILS.length]} #${Math.floor(i / FAILS.length) + 1}`,
  );
  const day = 24 * 3600 * 1000;
  const span = 365 * day;
  // Oldest first, spread over a year; the newest within the last hour.
  const times = Array.from(
    { length: t.snapshots },
    () => t.now.getTime() - 3600_000 - Math.floor(r() * span),
  ).sort((a, b) => a - b);
  const used = new Set<string>();
  const index: {
    id: string;
    path: string;
    created_at: string;
    goal: string;
    active_files: string[];
    blocker: string;
    layers: string[];
  }[] = [];
  for (let i = 0; i < t.snapshots; i++) {
    const created = new Date(times[i]);
    const newest = t.snapshots - i;
    // A store as the spec's cleanup left it: old snapshots are in progress or blocked; the completed
    // ones are the few newest (completed ones older than 30 days went; retention now archives them).
    const status = newest <= 8 && r() < 0.5 ? "completed" : r() < 0.2 ? "blocked" : "in_progress";
    const words: string[] = [];
    if (r() < 0.5) for (let k = int(r, 1, 3); k > 0; k--) words.push(COMMON_WORD);
    if (r() < 0.002 || i === t.forceRare) words.push(RARE_WORD);
    const failures = projectItems.length
      ? Array.from(new Set(Array.from({ length: int(r, 0, 3) }, () => pick(r, projectItems))))
      : [];
    const topic = slug(`${pick(r, VERBS)} ${pick(r, THINGS)}`);
    const base = `${topic}_${created.toISOString().slice(0, 10)}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    const text = snapshotText(r, { id, created, status, failures, words, l3Bytes: int(r, 1024, 20 * 1024) });
    writeFileSync(join(root, "snapshots", `${id}.md`), text);
    if (newest <= 20) {
      const goal = /^goal: (.*)$/m.exec(text)![1];
      index.push({
        id,
        path: `.mindsave/snapshots/${id}.md`,
        created_at: created.toISOString(),
        goal: JSON.parse(goal),
        active_files: [],
        blocker: "none",
        layers: ["L1", "L2", "L3"],
      });
    }
  }
  writeFileSync(join(root, "index.json"), JSON.stringify({ snapshots: index.reverse() }, null, 2) + "\n");

  const node = (item: string, scope: string, i: number) => {
    const k = FAILS.indexOf(item.replace(/ #\d+$/, "").replace(/^global: /, ""));
    const last = new Date(t.now.getTime() - Math.floor(r() * span));
    const first = new Date(last.getTime() - Math.floor(r() * 90 * day));
    return {
      item,
      schema_version: "2.0",
      rejected_by: r() < 0.5 ? "user" : "system",
      reason: REASONS[Math.max(0, k)] ?? "did not work",
      repeat_count: int(r, 1, 6),
      scope,
      related: [],
      alternatives: [ALTS[Math.max(0, k)] ?? `alternative ${i}`],
      first_seen: first.toISOString(),
      last_seen: last.toISOString(),
    };
  };
  projectItems.forEach((item, i) =>
    writeFileSync(
      join(root, "failure_graph", "project", `f${i}.json`),
      JSON.stringify(node(item, "project", i), null, 2) + "\n",
    ),
  );
  for (let i = 0; i < t.globalFailures; i++) {
    const item = `global: ${FAILS[(t.globalBase + i) % FAILS.length]} #${t.globalBase + i}`;
    writeFileSync(
      join(root, "failure_graph", "global", `g${t.globalBase + i}.json`),
      JSON.stringify(node(item, "global", i), null, 2) + "\n",
    );
  }
}

/** A one-project tree for `import` (and export, sync): its own failures only, no forced rare word. */
export function writeImportTree(t: {
  dir: string;
  name: string;
  snapshots: number;
  failures: number;
  /** The config's seed: the project's id is `bench-{seed}-{name}`; its files are seeded seed + offset. */
  seed: number;
  offset: number;
  now: Date;
}): void {
  writeTree({
    dir: t.dir,
    projectId: `bench-${t.seed}-${t.name}`,
    name: t.name,
    snapshots: t.snapshots,
    projectFailures: t.failures,
    globalFailures: 0,
    globalBase: 0,
    seed: t.seed + t.offset,
    now: t.now,
    forceRare: 0,
  });
}

/** Snapshots per project: Zipf-like (a few big projects, a long tail), adding up to `total`. */
export function projectSizes(projects: number, total: number): number[] {
  const w = Array.from({ length: projects }, (_, i) => 1 / (i + 1));
  const sum = w.reduce((a, b) => a + b, 0);
  const sizes = w.map((x) => Math.max(1, Math.floor((x / sum) * total)));
  sizes[0] += total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

export function projectName(i: number): string {
  return `${NAME_A[i % NAME_A.length]}-${NAME_B[Math.floor(i / NAME_A.length) % NAME_B.length]}${i >= NAME_A.length * NAME_B.length ? `-${i}` : ""}`;
}

/** A Claude Code transcript (JSONL) of about `bytes`: prompts, tool calls with their results, usage. */
export function writeTranscript(path: string, bytes: number, cwd: string, seed: number): void {
  const r = rng(seed);
  const lines: string[] = [];
  let size = 0;
  const add = (o: unknown) => {
    const s = JSON.stringify(o);
    lines.push(s);
    size += s.length + 1;
  };
  const t0 = Date.UTC(2026, 10, 20, 9, 0, 0);
  let n = 0;
  const ts = () => new Date(t0 + n * 7000).toISOString();
  add({
    type: "user",
    sessionId: "bench-session",
    cwd,
    timestamp: ts(),
    message: {
      role: "user",
      content:
        "Add JWT refresh-token rotation to the auth service and keep the old endpoint for one release.",
    },
  });
  const todos = [
    {
      content: "Write the rotation endpoint",
      status: "completed",
      activeForm: "Writing the rotation endpoint",
    },
    {
      content: "Fix the clock skew in the expiry tests",
      status: "in_progress",
      activeForm: "Fixing the clock skew",
    },
    { content: "Update the docs", status: "pending", activeForm: "Updating the docs" },
  ];
  while (size < bytes) {
    n++;
    const id = `toolu_${n.toString(36).padStart(8, "0")}`;
    const kind = r();
    const file = join(cwd, filePath(r));
    let input: Record<string, unknown>;
    let name: string;
    if (kind < 0.3) [name, input] = ["Read", { file_path: file }];
    else if (kind < 0.55)
      [name, input] = ["Edit", { file_path: file, old_string: sentence(r, 6), new_string: sentence(r, 8) }];
    else if (kind < 0.8)
      [name, input] = ["Bash", { command: `bun test ${filePath(r)}`, description: "Run the tests" }];
    else if (kind < 0.95) [name, input] = ["Grep", { pattern: pick(r, WORDS), path: cwd }];
    else [name, input] = ["TodoWrite", { todos }];
    const usage = {
      input_tokens: int(r, 5, 50),
      cache_read_input_tokens: 70_000 + int(r, 0, 10_000),
      cache_creation_input_tokens: int(r, 100, 2000),
      output_tokens: int(r, 20, 800),
    };
    add({
      type: "assistant",
      sessionId: "bench-session",
      cwd,
      timestamp: ts(),
      message: {
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [
          { type: "text", text: sentence(r) },
          { type: "tool_use", id, name, input },
        ],
        usage,
      },
    });
    const result = Array.from({ length: int(r, 5, 40) }, () => sentence(r)).join("\n");
    add({
      type: "user",
      sessionId: "bench-session",
      cwd,
      timestamp: ts(),
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: id, content: result, is_error: r() < 0.05 }],
      },
    });
  }
  writeFileSync(path, lines.join("\n") + "\n");
}

export interface DataSet {
  dir: string;
  config: GenConfig;
  userHome: string;
  home: string;
  db: string;
  projects: { id: string; name: string; workspace: string; exported: string; snapshots: number }[];
  /** The import/export/sync trees, absent when the config has none (bigSnapshots 0). */
  big: { workspace: string; snapshots: number } | null;
  mid: { workspace: string; snapshots: number } | null;
  /** The big tree imported by another host (bench-b): the other side of the sync benchmark, and what export is measured on. */
  homeB: string | null;
  transcript: string;
  /** A snapshot file for `save` from stdin (same generator, ~10 KB of Layer 3). */
  saveInput: string;
  generatedSeconds: number;
}

export interface Runner {
  (args: string[], opts: { cwd: string; env: Record<string, string | undefined> }): void;
}

/**
 * The data set for `config`, from the cache when it is there (`{cacheRoot}/data-{key}`), else
 * generated and imported through `exe` (the compiled binary). `key` should change whenever the
 * generator or the store's schema does.
 */
export function prepareData(
  cacheRoot: string,
  config: GenConfig,
  key: string,
  run: Runner,
  log: (s: string) => void,
): DataSet {
  const dir = join(cacheRoot, `data-${key}`);
  const manifest = join(dir, "ready.json");
  if (existsSync(manifest)) {
    const ds = JSON.parse(readFileSync(manifest, "utf8")) as DataSet;
    if (ds.dir === dir && existsSync(ds.db) && (!ds.homeB || existsSync(ds.homeB))) return ds;
  }
  const started = performance.now();
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(dir, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
  const at = (p: string) => join(dir, p);
  const userHome = join(tmp, "userhome");
  const home = join(tmp, "home");
  mkdirSync(userHome, { recursive: true });
  mkdirSync(home, { recursive: true });
  const now = new Date();
  const sizes = projectSizes(config.projects, config.snapshots);
  const projectFailures = Math.round(config.failures * 0.8);
  const globalFailures = config.failures - projectFailures;
  const failShare = projectSizes(config.projects, projectFailures);
  const globalShare = projectSizes(config.projects, globalFailures).reverse();
  const projects: DataSet["projects"] = [];
  let globalBase = 0;
  // The same paths inside the temporary folder and, after the rename, the cache: commands are
  // run with `--workspace`, so a moved workspace is still the same project (project.json's id).
  for (let i = 0; i < config.projects; i++) {
    const name = projectName(i);
    const ws = join(tmp, "ws", name);
    const projectId = `bench-${config.seed}-${i}`;
    writeTree({
      dir: ws,
      projectId,
      name,
      snapshots: sizes[i],
      projectFailures: failShare[i],
      globalFailures: globalShare[i],
      globalBase,
      seed: config.seed + i,
      now,
      forceRare: Math.floor(sizes[i] / 2),
    });
    globalBase += globalShare[i];
    projects.push({
      id: projectId,
      name,
      workspace: at(`ws/${name}`),
      exported: at(`export/${name}`),
      snapshots: sizes[i],
    });
  }
  log(
    `generated ${config.snapshots} snapshots in ${config.projects} projects (${((performance.now() - started) / 1000).toFixed(1)} s); importing…`,
  );
  const env = { HOME: userHome, MINDSAVE_HOST: "bench-a", NO_COLOR: "1" };
  // Imported at the cache path: the store records each project's root on this host.
  renameSync(tmp, dir);
  for (const p of projects)
    run(["import", p.workspace, "--home", at("home"), "--workspace", p.workspace], {
      cwd: p.workspace,
      env: { ...env, HOME: at("userhome") },
    });
  log(
    `imported (${((performance.now() - started) / 1000).toFixed(1)} s); exporting the file-based baseline…`,
  );
  for (const p of projects) {
    mkdirSync(p.exported, { recursive: true });
    run(["export", "--out", p.exported, "--home", at("home"), "--workspace", p.workspace], {
      cwd: p.workspace,
      env: { ...env, HOME: at("userhome") },
    });
  }
  let big: DataSet["big"] = null;
  let mid: DataSet["mid"] = null;
  let homeB: string | null = null;
  if (config.bigSnapshots > 0) {
    const bigWs = at("big");
    const tree = { seed: config.seed, now };
    writeImportTree({
      ...tree,
      dir: bigWs,
      name: "big",
      snapshots: config.bigSnapshots,
      failures: Math.min(200, config.failures),
      offset: 1000,
    });
    const midWs = at("mid");
    writeImportTree({
      ...tree,
      dir: midWs,
      name: "mid",
      snapshots: config.midSnapshots,
      failures: Math.min(40, config.failures),
      offset: 2000,
    });
    log(`importing the ${config.bigSnapshots}-snapshot tree as a second host (the sync peer)…`);
    homeB = at("home-b");
    mkdirSync(homeB, { recursive: true });
    run(["import", bigWs, "--home", homeB, "--workspace", bigWs], {
      cwd: bigWs,
      env: { ...env, HOME: at("userhome"), MINDSAVE_HOST: "bench-b" },
    });
    big = { workspace: bigWs, snapshots: config.bigSnapshots };
    mid = { workspace: midWs, snapshots: config.midSnapshots };
  }
  const transcript = at("transcript.jsonl");
  writeTranscript(transcript, config.transcriptBytes, projects[0].workspace, config.seed);
  const saveInput = at("save-input.md");
  writeFileSync(
    saveInput,
    snapshotText(rng(config.seed + 7), {
      id: "bench_save",
      created: now,
      status: "in_progress",
      failures: [],
      words: [COMMON_WORD],
      l3Bytes: 10 * 1024,
    })
      .replace(/^snapshot_id: .*\n/m, "")
      .replace(/^created_at: .*\n/m, ""),
  );
  const ds: DataSet = {
    dir,
    config,
    userHome: at("userhome"),
    home: at("home"),
    db: at("home/mindsave.db"),
    projects,
    big,
    mid,
    homeB,
    transcript,
    saveInput,
    generatedSeconds: (performance.now() - started) / 1000,
  };
  writeFileSync(manifest, JSON.stringify(ds, null, 2) + "\n");
  return ds;
}
