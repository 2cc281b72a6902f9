// Compiles MindSave into one self-contained executable per target:
//   bun run build                       every target into dist/<target>/
//   bun run build --target host         only this machine's target
//   bun run build --target linux-arm64,windows-x64 --outdir out
// Each binary embeds its own platform's libSQL addon (see the plugin below) and runs from a
// directory with no node_modules anywhere above it. Needs `bun install --os='*' --cpu='*'` so the
// other platforms' addons are present.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BunPlugin } from "bun";

export interface Target {
  name: string;
  bun: Bun.Build.CompileTarget;
  addon: string;
  exe: string;
}

export const TARGETS: Target[] = [
  { name: "linux-x64", bun: "bun-linux-x64", addon: "linux-x64-gnu", exe: "mindsave" },
  { name: "linux-arm64", bun: "bun-linux-arm64", addon: "linux-arm64-gnu", exe: "mindsave" },
  { name: "darwin-x64", bun: "bun-darwin-x64", addon: "darwin-x64", exe: "mindsave" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64", addon: "darwin-arm64", exe: "mindsave" },
  { name: "windows-x64", bun: "bun-windows-x64", addon: "win32-x64-msvc", exe: "mindsave.exe" },
];

const ROOT = import.meta.dir;

export function hostTarget(): Target {
  const name = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  const t = TARGETS.find((x) => x.name === name);
  if (!t) throw new Error(`No build target for this machine (${name}).`);
  return t;
}

/**
 * libsql picks its native addon with a computed require at run time, which the bundler cannot
 * see, so a compiled binary would look for node_modules. Replace it with a static require of the
 * target's own addon file; Bun then embeds that file in the executable.
 */
export function libsqlAddon(target: Target): BunPlugin {
  return {
    name: "libsql-addon",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, (args) => {
        const source = readFileSync(args.path, "utf8");
        const dynamic = "return require(`@libsql/${target}`);";
        if (!source.includes(dynamic)) {
          throw new Error(
            `libsql/index.js no longer contains ${dynamic}; update build.ts for the new layout.`,
          );
        }
        const addon = join(dirname(args.path), "..", "@libsql", target.addon, "index.node");
        if (!existsSync(addon)) {
          throw new Error(
            `Missing ${addon}: run \`bun install --os='*' --cpu='*'\` to fetch every platform's libSQL addon.`,
          );
        }
        return {
          contents: source.replace(dynamic, `return require(${JSON.stringify(addon)});`),
          loader: "js",
        };
      });
    },
  };
}

/**
 * commander imports node:events, node:child_process and node:util, which Bun loads as JavaScript
 * (~2.5 ms of every command's start, measured in the binary), for what we use of them: three
 * EventEmitter methods, and a help formatter's stripVTControlCharacters. Here its EventEmitter is
 * a small one with the methods commander calls, and the other two are loaded only if ever used
 * (help output; executable subcommands, which MindSave has none of).
 */
export const commanderLight: BunPlugin = {
  name: "commander-light",
  setup(build) {
    const util = [
      "import { stripVTControlCharacters } from 'node:util';",
      "const stripVTControlCharacters = (s) => require('node:util').stripVTControlCharacters(s);",
    ];
    const swaps: Record<string, string[][]> = {
      "command.js": [
        ["import { EventEmitter } from 'node:events';", EVENT_EMITTER],
        [
          "import childProcess from 'node:child_process';",
          "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
        ],
        util,
      ],
      "help.js": [util],
    };
    build.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/](command|help)\.js$/ }, (args) => {
      let source = readFileSync(args.path, "utf8");
      for (const [from, to] of swaps[basename(args.path)]) {
        if (!source.includes(from))
          throw new Error(`${args.path} no longer contains ${from}; update build.ts (commanderLight).`);
        source = source.replace(from, () => to);
      }
      return { contents: source, loader: "js" };
    });
  },
};

/** The EventEmitter methods commander calls (on, emit, listenerCount), with Node's semantics for them. */
const EVENT_EMITTER = `class EventEmitter {
  #listeners = new Map();
  on(event, listener) {
    const all = this.#listeners.get(event);
    if (all) all.push(listener);
    else this.#listeners.set(event, [listener]);
    return this;
  }
  emit(event, ...args) {
    const all = this.#listeners.get(event);
    if (!all) return false;
    for (const listener of [...all]) listener.apply(this, args);
    return true;
  }
  listenerCount(event) {
    return this.#listeners.get(event)?.length ?? 0;
  }
}`;

/** ink imports react-devtools-core only for its devtools; a stub keeps the binary from needing it. */
const devtoolsStub: BunPlugin = {
  name: "devtools-stub",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: "react-devtools-core",
      namespace: "stub",
    }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export default { connectToDevTools() {}, initialize() {} };",
      loader: "js",
    }));
  },
};

export async function buildTarget(target: Target, outdir: string): Promise<string> {
  const dir = join(outdir, target.name);
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, target.exe);
  // Built under a temporary name and renamed: a test run using the previous binary never finds it missing.
  const building = join(dir, `.building-${process.pid}-${target.exe}`);
  rmSync(building, { force: true });
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src", "main.ts")],
    compile: { target: target.bun, outfile: building, autoloadDotenv: false, autoloadBunfig: false },
    // Splitting + bytecode + ESM: dynamic imports stay lazy in the binary, so --version and
    // --help never parse the store, the tokenizer or the UI.
    splitting: true,
    bytecode: true,
    format: "esm",
    minify: true,
    sourcemap: "none",
    define: {
      "process.env.MINDSAVE_BUILD_TARGET": JSON.stringify(target.name),
      // React and ink ship their production builds (the development ones check and trace every render).
      "process.env.NODE_ENV": JSON.stringify("production"),
    },
    plugins: [libsqlAddon(target), devtoolsStub, commanderLight],
  });
  if (!result.success) {
    throw new Error(`Build for ${target.name} failed:\n${result.logs.map((l) => String(l)).join("\n")}`);
  }
  if (!existsSync(building)) throw new Error(`Build for ${target.name} produced no ${outfile}.`);
  renameSync(building, outfile);
  return outfile;
}

/** Everything a binary is built from: each file's name in the hash, and its path. */
function sourceFiles(): { name: string; path: string }[] {
  const files: { name: string; path: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push({ name: p, path: p });
    }
  };
  walk(join(ROOT, "src"));
  walk(join(ROOT, "ui"));
  for (const f of ["package.json", "bun.lock", "build.ts"]) files.push({ name: f, path: join(ROOT, f) });
  return files;
}

/** A hash of everything a binary is built from, so a test can tell a stale binary from a fresh one. */
export function sourcesHash(): string {
  const hash = new Bun.CryptoHasher("sha256");
  for (const { name, path } of sourceFiles()) hash.update(name).update(readFileSync(path));
  return hash.digest("hex");
}

/**
 * Each source's size and modification time: while they are as the build recorded them, so is the
 * sources' hash, which a test process then need not compute (reading every source: ~13 ms a file).
 */
export function sourcesStat(): string {
  return sourceFiles()
    .map(({ name, path }) => {
      const s = statSync(path, { bigint: true });
      return `${name} ${s.size} ${s.mtimeNs}\n`;
    })
    .join("");
}

export function selectTargets(spec: string): Target[] {
  if (spec === "all") return TARGETS;
  if (spec === "host") return [hostTarget()];
  return spec.split(",").map((name) => {
    const t = TARGETS.find((x) => x.name === name.trim());
    if (!t)
      throw new Error(
        `Unknown target ${name}; choose from ${TARGETS.map((x) => x.name).join(", ")}, host or all.`,
      );
    return t;
  });
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      target: { type: "string", default: "all" },
      outdir: { type: "string", default: join(ROOT, "dist") },
      quiet: { type: "boolean", default: false },
    },
  });
  const outdir = resolve(values.outdir!);
  // Hashed before building: a source changed during the build makes the binary stale, not fresh.
  // Their sizes and times first: a source changed meanwhile then differs from them, never only from the hash.
  const stat = sourcesStat();
  const sources = sourcesHash();
  for (const target of selectTargets(values.target!)) {
    const started = performance.now();
    const file = await buildTarget(target, outdir);
    const mb = (statSync(file).size / 1024 / 1024).toFixed(0);
    writeFileSync(join(dirname(file), "sources.sha256"), sources + "\n");
    // With the hash they were taken with: a binary built later (binary.test's) leaves them stale.
    writeFileSync(join(dirname(file), "sources.stat"), `${sources}\n${stat}`);
    if (!values.quiet)
      console.log(
        `${target.name.padEnd(13)} ${file} (${mb} MB, ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
  }
}
