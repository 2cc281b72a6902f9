// The layer rules, checked on the source: the engine never imports ui/ or React; only the store
// holds SQL; ui/ reaches the engine only through its functions; commands load ui/ lazily.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "./helpers.ts";

function files(dir: string): string[] {
  let out: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
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

const rel = (p: string) => relative(REPO, p);
const staticImports = (src: string) => [...src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]);
const SQL = /\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TRIGGER|VIRTUAL))\b|\.execute\(|\.batch\(/i;

test("the engine and the store never import React, ink or ui/", () => {
  const bad = files(join(REPO, "src")).filter((f) => staticImports(readFileSync(f, "utf8")).some((i) => /^(react|ink)(\/|$)|(^|\/)ui\//.test(i)));
  expect(bad.map(rel)).toEqual([]);
});

test("only src/store/ holds SQL", () => {
  const bad = [...files(join(REPO, "src")), ...files(join(REPO, "ui"))]
    .filter((f) => !rel(f).startsWith("src/store/"))
    .filter((f) => SQL.test(readFileSync(f, "utf8")));
  expect(bad.map(rel)).toEqual([]);
});

test("only the engine imports the store; commands and ui/ go through the engine (type imports aside)", () => {
  const bad = [...files(join(REPO, "src", "commands")), ...files(join(REPO, "ui"))].filter((f) => {
    const code = readFileSync(f, "utf8").replace(/import type[^;]+;/g, "");
    return staticImports(code).some((i) => /(^|\/)store\/|@libsql\/client/.test(i));
  });
  expect(bad.map(rel)).toEqual([]);
});

test("nothing but src/store/ loads @libsql/client, and it loads it lazily", () => {
  const users = files(join(REPO, "src")).filter((f) => readFileSync(f, "utf8").includes("@libsql/client"));
  expect(users.map(rel).every((f) => f.startsWith("src/store/"))).toBe(true);
  for (const f of users) {
    expect(staticImports(readFileSync(f, "utf8").replace(/import type[^;]+;/g, ""))).not.toContain("@libsql/client");
  }
});

test("the entry point and cli.ts import no command module statically", () => {
  for (const f of ["src/main.ts", "src/cli.ts"]) {
    const imports = staticImports(readFileSync(join(REPO, f), "utf8"));
    expect(imports.filter((i) => i.includes("commands/") || i.includes("engine/") || i.includes("store/"))).toEqual([]);
  }
});

test("commands and ui/ never reach into the session's store directly", () => {
  const bad = [...files(join(REPO, "src", "commands")), ...files(join(REPO, "ui"))].filter((f) => /session\.store\b/.test(readFileSync(f, "utf8")));
  expect(bad.map(rel)).toEqual([]);
});

test("only the ui command loads ui/, and only with a dynamic import", () => {
  const users = files(join(REPO, "src")).filter((f) => /["'](\.\.\/)+ui\//.test(readFileSync(f, "utf8")));
  expect(users.map(rel)).toEqual(["src/commands/ui.ts"]);
  const src = readFileSync(join(REPO, "src", "commands", "ui.ts"), "utf8");
  expect(src).toMatch(/await import\(["']\.\.\/\.\.\/ui\/run\.tsx["']\)/);
  expect(staticImports(src).filter((i) => i.includes("ui/"))).toEqual([]);
});
