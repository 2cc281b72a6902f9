// `bun run bench:profile` (= `bun bench/profile.ts [--size 1k|10k|100k] [--cases load,…]`): CPU
// profiles of the commands whose goals `bun run bench` measures, run from the source with Bun's
// `--cpu-prof` on the same cached data set of that size (a working copy; 10k unless told), and a summary of where the time
// goes: the heaviest functions (inclusive and self time) and modules. Profiles are kept in
// .bench/profiles/ (open them in Chrome DevTools or VS Code). From source, module loading and
// transpiling weigh more than in the compiled binary (which has bytecode): read the engine's own
// functions first.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { COMMON_WORD, RARE_WORD, rng, SIZES, snapshotText, TINY } from "./gen.ts";
import { hookPayloads } from "./cases.ts";
import { data, hostExe, log, ROOT, workCopy } from "./setup.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    cases: { type: "string", default: "load,recall.rare,recall.common,hook.session-start,save,import" },
    tiny: { type: "boolean", default: false },
    size: { type: "string", default: "10k" },
    top: { type: "string", default: "10" },
    cache: { type: "string" },
    exe: { type: "string" },
    out: { type: "string" },
  },
});
const cacheRoot = resolve(values.cache ?? join(ROOT, ".bench"));
const outDir = resolve(values.out ?? join(cacheRoot, "profiles"));
const top = Number(values.top);
const binDir = join(cacheRoot, "bin");
const exe = await hostExe(values.exe, binDir);
if (!values.tiny && !SIZES[values.size!])
  throw new Error(`Unknown size ${values.size}; choose from ${Object.keys(SIZES).join(", ")}.`);
const ds = data(
  cacheRoot,
  values.tiny ? "tiny" : values.size!,
  values.tiny ? TINY : SIZES[values.size!],
  exe,
);
const work = workCopy(ds, join(cacheRoot, `profile-${process.pid}`));
const p0 = ds.projects[0];
const main = join(ROOT, "src", "main.ts");
mkdirSync(outDir, { recursive: true });

/** A smaller tree for import: 1,000 snapshots (the rate is what matters; 10,000 take minutes from source). */
const IMPORT_SNAPSHOTS = values.tiny ? 20 : 1000;

interface ProfCase {
  args: string[];
  cwd: string;
  stdin?: string;
  env?: Record<string, string>;
}

const payloads = hookPayloads(ds, work);

async function importTree(): Promise<string> {
  const { writeTree } = await import("./gen.ts");
  const dir = join(work.dir, "import-src");
  writeTree({
    dir,
    projectId: "bench-profile-import",
    name: "profile-import",
    snapshots: IMPORT_SNAPSHOTS,
    projectFailures: 40,
    globalFailures: 0,
    globalBase: 0,
    seed: 99,
    now: new Date(),
    forceRare: 0,
  });
  return dir;
}

const CASES: Record<string, () => Promise<ProfCase>> = {
  version: async () => ({ args: ["--version"], cwd: p0.workspace }),
  load: async () => ({ args: ["load", "--latest"], cwd: p0.workspace }),
  "recall.rare": async () => ({ args: ["recall", RARE_WORD], cwd: p0.workspace }),
  "recall.common": async () => ({ args: ["recall", COMMON_WORD], cwd: p0.workspace }),
  list: async () => ({ args: ["snapshots", "list"], cwd: p0.workspace }),
  save: async () => {
    const path = join(work.dir, "save.md");
    writeFileSync(
      path,
      snapshotText(rng(7), {
        id: "x",
        created: new Date(),
        status: "in_progress",
        failures: [],
        words: [],
        l3Bytes: 10240,
      }).replace(/^(snapshot_id|created_at): .*\n/gm, ""),
    );
    return { args: ["save"], cwd: p0.workspace, stdin: path };
  },
  "hook.session-start": async () => ({
    args: ["hook", "session-start"],
    cwd: p0.workspace,
    stdin: payloads["session-start"],
  }),
  "hook.post-tool-use": async () => ({
    args: ["hook", "post-tool-use"],
    cwd: p0.workspace,
    stdin: payloads["post-tool-use"],
  }),
  "hook.stop": async () => ({ args: ["hook", "stop"], cwd: p0.workspace, stdin: payloads.stop }),
  import: async () => {
    const dir = await importTree();
    const home = join(work.dir, "import-home");
    mkdirSync(home, { recursive: true });
    return { args: ["import", dir], cwd: dir, env: { MINDSAVE_HOME: home, MINDSAVE_HOST: "bench-b" } };
  },
};

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, shortened: src/…, ui/…, a package name, or (native). */
function where(url: string): string {
  if (!url) return "(native)";
  const path = url.replace(/^file:\/\//, "");
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm) return nm[1];
  if (path.startsWith(ROOT + "/")) return path.slice(ROOT.length + 1);
  return path.replace(/^.*\//, "");
}

const TOKEN_MODULES = ["src/engine/snapshots/tokens.ts", "src/engine/snapshots/bpe.ts"];

/** Inclusive and self time per function, self time per module, from a .cpuprofile. */
export function summarise(
  p: Profile,
  n: number,
): {
  total: number;
  inclusive: [string, number][];
  self: [string, number][];
  modules: [string, number][];
  /** Counting tokens (tokens.ts and bpe.ts, loading the vocabulary too): what stored counts could save. */
  tokens: number;
} {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const key = (x: Node) =>
    `${x.callFrame.functionName || "(anonymous)"} ${where(x.callFrame.url)}${x.callFrame.lineNumber >= 0 ? `:${x.callFrame.lineNumber + 1}` : ""}`;
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  const modules = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = (p.timeDeltas[i + 1] ?? p.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)") return;
    total += dt;
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + dt);
    // Native time (SQLite, the module loader, builtins) is charged to the module that called it.
    let owner: Node | undefined = leaf;
    while (owner && !owner.callFrame.url) owner = byId.get(parent.get(owner.id) ?? -1);
    const mod = owner ? where(owner.callFrame.url) : "(native)";
    modules.set(mod, (modules.get(mod) ?? 0) + dt);
    const seen = new Set<string>();
    for (let x: Node | undefined = leaf; x; x = byId.get(parent.get(x.id) ?? -1)) {
      const k = key(x);
      if (x.callFrame.functionName === "(root)" || seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  // Inclusive: the engine's and store's own functions and the libraries' entry points, not the module wrappers.
  const inc = [...inclusive]
    .filter(([k]) => !/^\(module\)|^\(anonymous\) \(native\)|^(run|main) /.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
  const tokens = TOKEN_MODULES.reduce((sum, k) => sum + (modules.get(k) ?? 0), 0);
  return { total, inclusive: inc, self: sorted(self), modules: sorted(modules), tokens };
}

const lines: string[] = [
  `# CPU profiles (${new Date().toISOString().slice(0, 10)}, bun ${Bun.version}, from source, ${ds.config.snapshots.toLocaleString("en-US")}-snapshot store; project ${p0.name} with ${p0.snapshots} snapshots)`,
  "",
];
try {
  for (const name of values
    .cases!.split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const make = CASES[name];
    if (!make) throw new Error(`Unknown case ${name}; choose from ${Object.keys(CASES).join(", ")}.`);
    const c = await make();
    const file = `${name}.cpuprofile`;
    rmSync(join(outDir, file), { force: true });
    log(`profiling ${name}…`);
    const t0 = performance.now();
    const r = Bun.spawnSync(
      [
        process.execPath,
        "--cpu-prof",
        `--cpu-prof-dir=${outDir}`,
        `--cpu-prof-name=${file}`,
        "--cpu-prof-interval=250",
        main,
        ...c.args,
      ],
      {
        cwd: c.cwd,
        env: { ...work.env, ...c.env },
        stdin: c.stdin ? Bun.file(c.stdin) : "ignore",
        stdout: "ignore",
        stderr: "pipe",
      },
    );
    const wall = performance.now() - t0;
    if (r.exitCode !== 0)
      throw new Error(`${name} exited ${r.exitCode}: ${r.stderr.toString().slice(-1500)}`);
    const prof = JSON.parse(readFileSync(join(outDir, file), "utf8")) as Profile;
    const s = summarise(prof, top);
    const fmt = (xs: [string, number][]) => xs.map(([k, v]) => `  - ${v.toFixed(1)} ms ${k}`).join("\n");
    lines.push(
      `## ${name}: \`mindsave ${c.args.join(" ")}\` (${s.total.toFixed(0)} ms sampled, ${wall.toFixed(0)} ms wall)`,
      "",
      "- inclusive:",
      fmt(s.inclusive),
      "- self:",
      fmt(s.self),
      "- self by module (native time charged to its caller):",
      fmt(s.modules),
      `- token counting (${TOKEN_MODULES.join(", ")}): ${s.tokens.toFixed(1)} ms, ${((100 * s.tokens) / s.total).toFixed(1)}% of the sampled time`,
      "",
    );
  }
  const text = lines.join("\n");
  writeFileSync(join(outDir, "summary.md"), text + "\n");
  console.log(text);
  log(`profiles and summary.md in ${outDir}`);
} finally {
  rmSync(work.dir, { recursive: true, force: true });
}
