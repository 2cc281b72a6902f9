// The layer rules of docs/architecture.md, checked on the source:
//   ui/ and src/commands/ (adapters) → src/engine/ → src/store/ (the only SQL); src/lib/ below all.
// Also: no import cycles (type-only imports included), commands load ui/ lazily, no doc comment
// stacked on another; function length is the linter's (eslint.config.js).
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "./helpers.ts";

function files(dir: string): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out = out.concat(files(p));
    else if (/\.(ts|tsx)$/.test(e)) out.push(p);
  }
  return out;
}

const rel = (p: string) => relative(REPO, p).split("\\").join("/");
const read = (p: string) => readFileSync(p, "utf8");
const withoutTypeImports = (src: string) => src.replace(/^\s*import type[^;]+;/gm, "");
/** Specifiers of static imports and re-exports (`import type` included unless stripped first). */
const staticImports = (src: string) =>
  [
    ...src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm),
  ].map((m) => m[1] ?? m[2]);
const dynamicImports = (src: string) =>
  [...src.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
/** Our own modules a file imports, as repo-relative paths. */
function localImports(file: string, src = read(file), { dynamic = false } = {}): string[] {
  const specs = [...staticImports(src), ...(dynamic ? dynamicImports(src) : [])];
  return specs.filter((s) => s.startsWith(".")).map((s) => rel(resolve(dirname(file), s)));
}

const SRC = files(join(REPO, "src"));
const UI = files(join(REPO, "ui"));
const ENGINE = SRC.filter((f) => rel(f).startsWith("src/engine/"));
const STORE = SRC.filter((f) => rel(f).startsWith("src/store/"));
const LIB = SRC.filter((f) => rel(f).startsWith("src/lib/"));
const COMMANDS = SRC.filter((f) => rel(f).startsWith("src/commands/"));
const ADAPTERS = [...COMMANDS, ...UI];
const SQL =
  /\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL))\b|\.execute\(|\.batch\(/i;

/** Files (repo-relative) whose imports break `allowed`, with the offending import. */
function breaking(
  sources: string[],
  allowed: (target: string, from: string) => boolean,
  opts: { types?: boolean } = {},
): string[] {
  return sources.flatMap((f) => {
    const src = opts.types === false ? withoutTypeImports(read(f)) : read(f);
    return localImports(f, src)
      .filter((t) => !allowed(t, rel(f)))
      .map((t) => `${rel(f)} → ${t}`);
  });
}

describe("layers", () => {
  test("src/lib/ imports nothing of ours but src/lib/", () => {
    expect(breaking(LIB, (t) => t.startsWith("src/lib/"))).toEqual([]);
  });

  test("the store imports only the store, src/lib/ and errors — never the engine or an adapter", () => {
    expect(breaking(STORE, (t) => /^src\/(store|lib)\//.test(t) || t === "src/errors.ts")).toEqual([]);
  });

  test("the engine never imports commands, ui/, cli.ts, React or ink", () => {
    const ours = breaking(ENGINE, (t) => !/^(src\/commands\/|ui\/|src\/cli\.ts)/.test(t));
    const libs = ENGINE.filter((f) => staticImports(read(f)).some((i) => /^(react|ink)(\/|$)/.test(i))).map(
      rel,
    );
    expect([...ours, ...libs]).toEqual([]);
  });

  test("only src/store/ holds SQL", () => {
    const bad = [...SRC, ...UI]
      .filter((f) => !rel(f).startsWith("src/store/"))
      .filter((f) => SQL.test(read(f)));
    expect(bad.map(rel)).toEqual([]);
  });

  test("adapters (commands, MCP, ui/) reach the store only through the engine (type imports aside)", () => {
    expect(breaking(ADAPTERS, (t) => !t.startsWith("src/store/"), { types: false })).toEqual([]);
    const driver = ADAPTERS.filter((f) => read(f).includes("@libsql/client")).map(rel);
    expect(driver).toEqual([]);
  });

  test("adapters never open a transaction nor reach into the session's store", () => {
    const bad = ADAPTERS.filter((f) =>
      /session\.store\b|\bsession\.write\(|\.write\(\s*async\b|\bsyncWrite\(/.test(read(f)),
    );
    expect(bad.map(rel)).toEqual([]);
  });

  test("a command never imports another command's module (only commands/shared.ts and its own folder)", () => {
    // `commands/mcp.ts` may use `commands/mcp/…`; a file in `commands/mcp/` its own folder.
    const bad = breaking(COMMANDS, (t, from) => {
      if (!t.startsWith("src/commands/")) return true;
      if (t === "src/commands/shared.ts") return true;
      const own = dirname(from);
      return t.startsWith(from.replace(/\.ts$/, "/")) || (own !== "src/commands" && t.startsWith(own + "/"));
    });
    expect(bad).toEqual([]);
  });

  test("ui/ imports only ui/, the engine, src/lib/, src/types.ts and src/errors.ts", () => {
    expect(
      breaking(
        UI,
        (t) => /^(ui\/|src\/engine\/|src\/lib\/)/.test(t) || t === "src/types.ts" || t === "src/errors.ts",
      ),
    ).toEqual([]);
  });

  test("nothing but src/store/ loads @libsql/client, and it loads it lazily", () => {
    const users = SRC.filter((f) => read(f).includes("@libsql/client"));
    expect(users.length).toBeGreaterThan(0);
    expect(users.map(rel).filter((f) => !f.startsWith("src/store/"))).toEqual([]);
    for (const f of users) expect(staticImports(withoutTypeImports(read(f)))).not.toContain("@libsql/client");
  });

  test("the entry point and the command declarations (cli.ts, cli-*.ts) import no command, engine or store module statically", () => {
    const declarations = SRC.map(rel).filter((f) => /^src\/cli(-[a-z]+)?\.ts$/.test(f));
    expect(declarations).toContain("src/cli-memory.ts");
    for (const f of ["src/main.ts", ...declarations]) {
      expect(localImports(join(REPO, f)).filter((i) => /^src\/(commands|engine|store)\//.test(i))).toEqual(
        [],
      );
    }
  });

  test("node:os is loaded lazily (src/lib/os.ts) and node:child_process never, outside text written for other programs", () => {
    // (Template literals are text: the opencode plugin MindSave writes imports node:child_process.)
    const code = (f: string) => withoutTypeImports(read(f)).replace(/`(?:\\[\s\S]|[^`\\])*`/g, "``");
    const bad = SRC.filter((f) => rel(f) !== "src/lib/os.ts").filter(
      (f) =>
        staticImports(code(f)).some((i) => /^(node:)?(os|child_process)$/.test(i)) ||
        /(?:require|getBuiltinModule)\(["'](node:)?(os|child_process)["']\)/.test(code(f)),
    );
    expect(bad.map(rel)).toEqual([]);
  });

  test("only the MCP server (src/commands/mcp/) loads the MCP SDK and zod, and mcp.ts loads it lazily: `mcp install` never does", () => {
    const users = SRC.filter((f) =>
      staticImports(withoutTypeImports(read(f))).some((i) => /^(@modelcontextprotocol\/|zod$)/.test(i)),
    );
    expect(users.length).toBeGreaterThan(0);
    expect(users.map(rel).filter((f) => !f.startsWith("src/commands/mcp/"))).toEqual([]);
    const mcp = read(join(REPO, "src", "commands", "mcp.ts"));
    expect(
      localImports(join(REPO, "src", "commands", "mcp.ts")).filter((i) => i.startsWith("src/commands/mcp/")),
    ).toEqual([]);
    expect(mcp).toMatch(/await import\(["']\.\/mcp\/server\.ts["']\)/);
  });

  test("only the ui command loads ui/, and only with a dynamic import", () => {
    const users = SRC.filter((f) => /["'](\.\.\/)+ui\//.test(read(f)));
    expect(users.map(rel)).toEqual(["src/commands/ui.ts"]);
    const src = read(join(REPO, "src", "commands", "ui.ts"));
    expect(src).toMatch(/await import\(["']\.\.\/\.\.\/ui\/run\.tsx["']\)/);
    expect(staticImports(src).filter((i) => i.includes("ui/"))).toEqual([]);
  });
});

/** Every cycle in the import graph of `sources`, each as "a → b → a". */
function importCycles(sources: string[]): string[] {
  const graph = new Map<string, string[]>();
  for (const f of sources) graph.set(rel(f), localImports(f, read(f), { dynamic: true }));
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const t of graph.get(f) ?? []) {
      if (!graph.has(t)) continue;
      if (state.get(t) === "open") cycles.push([...stack.slice(stack.indexOf(t)), t].join(" → "));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return cycles;
}

describe("shape", () => {
  test("no import cycles in src/ and ui/, type-only and dynamic imports included", () => {
    expect(importCycles([...SRC, ...UI])).toEqual([]);
  });

  test("the cycle check finds a cycle, a type-only one included", () => {
    const dir = join(REPO, "test", "fixtures", "cycle");
    expect(importCycles(files(dir))).toEqual([
      "test/fixtures/cycle/a.ts → test/fixtures/cycle/b.ts → test/fixtures/cycle/a.ts",
    ]);
  });

  // Functions, not files, have a length limit: the linter's max-lines-per-function (eslint.config.js),
  // which `bun run lint` runs in CI. This proves the rule is on for source files.
  test("the linter refuses a source function over 80 lines", async () => {
    const { ESLint } = await import("eslint");
    const body = Array.from({ length: 81 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const code = `export function long(): number {\n${body}\n  return v0;\n}\n`;
    const [result] = await new ESLint({ cwd: REPO }).lintText(code, {
      filePath: join(REPO, "src", "long.ts"),
    });
    expect(result!.messages.map((m) => m.ruleId)).toContain("max-lines-per-function");
  });

  // A doc comment documents what follows it; one stacked on another documents nothing.
  test("no doc comment sits directly on another", () => {
    const stacked: string[] = [];
    for (const f of [...SRC, ...UI]) {
      const lines = read(f).split("\n");
      let lastDocEnd = -2;
      let inDoc = false;
      lines.forEach((line, i) => {
        const s = line.trim();
        if (s.startsWith("/**")) {
          const between = lines.slice(lastDocEnd + 1, i);
          if (lastDocEnd >= 0 && between.every((l) => !l.trim())) stacked.push(`${rel(f)}:${i + 1}`);
          inDoc = true;
        }
        if (inDoc && s.endsWith("*/")) {
          inDoc = false;
          lastDocEnd = i;
        } else if (!inDoc && s) lastDocEnd = -2;
      });
    }
    expect(stacked).toEqual([]);
  });

  // A restore block or an export must come out the same on every host: what sorts people's text
  // names its locale (lib/text.ts compareText); the host's default locale is never used.
  test("no order depends on the host's locale: no localeCompare, and every Intl.Collator names its locale", () => {
    const bare = [...SRC, ...UI].flatMap((f) =>
      [...read(f).matchAll(/\.localeCompare\(|new Intl\.Collator\(\s*(?:undefined|\))/g)].map(() => rel(f)),
    );
    expect(bare).toEqual([]);
    expect(read(join(REPO, "src", "lib", "text.ts"))).toContain('new Intl.Collator("en")');
  });
});
