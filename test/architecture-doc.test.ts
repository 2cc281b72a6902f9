// docs/architecture.md stays true to the tree: every module it names exists, every module of src/
// and ui/ is named in its tables, and each function a trace names is in a file that trace visits.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO } from "./helpers.ts";

const DOC = join(REPO, "docs", "architecture.md");

/** Repo-relative paths of the files under `dir`. */
function files(dir: string): string[] {
  return readdirSync(join(REPO, dir))
    .sort()
    .flatMap((e) => {
      const p = `${dir}/${e}`;
      return statSync(join(REPO, p)).isDirectory() ? files(p) : [p];
    });
}

// (`.mindsave/` and `~/.mindsave/bin` are places on a host, not modules.)
const isPath = (t: string) => /^[\w*-][\w.*-]*\/[\w./*-]*$|^[\w-][\w.-]*\.(ts|tsx|ranks)$/.test(t);
const isName = (t: string) =>
  /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?$/.test(t) && !/\.(ts|tsx|ranks|md|json|db)$/.test(t);
const tokens = (line: string) => [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
const exists = (p: string) => {
  if (!p.includes("*")) return existsSync(join(REPO, p));
  const pattern = new RegExp(`^${p.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}$`);
  return files(dirname(p)).some((f) => pattern.test(f));
};
/** The doc without its fenced blocks (the drawing). */
const lines = () =>
  readFileSync(DOC, "utf8")
    .replace(/^```[\s\S]*?^```$/gm, "")
    .split("\n");

interface Row {
  line: string;
  cells: string[];
  base: string;
}
interface Resolved {
  named: string[];
  missing: string[];
}

/** Table rows, each with its section's folder (the heading's first folder token, else the repo). */
function tableRows(): Row[] {
  let base = "";
  const rows: Row[] = [];
  for (const line of lines()) {
    if (/^#{2,3} /.test(line)) base = tokens(line).find((t) => t.endsWith("/")) ?? "";
    else if (line.startsWith("|") && !/^\|[-|]+\|$/.test(line))
      rows.push({ line, cells: line.split("|").slice(1, -1), base });
  }
  return rows;
}

/** Cells' paths: a bare file name is in the folder of the path before it in the row, else the section's folder or one above. */
function resolveCells(cells: string[], base: string): Resolved {
  const out: Resolved = { named: [], missing: [] };
  let folder: string | null = null;
  for (const t of cells.flatMap(tokens).filter(isPath)) {
    const bases: string[] = [...(folder !== null && !t.includes("/") ? [folder] : []), ...ancestors(base)];
    const found: string | undefined = bases.map((b) => b + t).find(exists);
    if (found) {
      out.named.push(found);
      folder = found.endsWith("/") ? found : dirname(found) + "/";
    } else out.missing.push(t);
  }
  return out;
}

/** "src/engine/x/" → ["src/engine/x/", "src/engine/", "src/", ""]. */
function ancestors(dir: string): string[] {
  const parts = dir.split("/").filter(Boolean);
  return parts.map((_, i) => parts.slice(0, parts.length - i).join("/") + "/").concat("");
}

/** The numbered steps of each trace, by its heading. */
function traces(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let inTraces = false;
  let current: string[] | null = null;
  for (const line of lines()) {
    if (line.startsWith("## ")) inTraces = /traced/i.test(line);
    else if (inTraces && line.startsWith("### ")) out.set(line, (current = []));
    else if (inTraces && current && /^\d+\. /.test(line)) current.push(line);
  }
  return out;
}

/** Where `name` is defined (or called) in a source text: followed by `(`, `=`, `:` or type parameters. */
const defines = (src: string, name: string) =>
  new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, "\\$")}\\s*(<[^\\n]*?>)?\\s*[(=:]`, "m").test(src);

describe("docs/architecture.md", () => {
  test("every module, folder and path its tables name exists", () => {
    const missing = tableRows().flatMap((r) =>
      resolveCells(r.cells, r.base).missing.map((t) => `${t} (in: ${r.line.slice(0, 60)})`),
    );
    expect(missing).toEqual([]);
  });

  test("every module of src/ and ui/ is in a table (a folder named whole counts for what it holds)", () => {
    const named = new Set(tableRows().flatMap((r) => resolveCells(r.cells.slice(0, 1), r.base).named));
    const folders = [...named].filter((n) => n.endsWith("/") && n.split("/").length > 2);
    const unnamed = [...files("src"), ...files("ui")].filter(
      (f) =>
        !named.has(f) &&
        !folders.some((d) => f.startsWith(d) && (d.startsWith("ui/") || dirname(f) + "/" === d)),
    );
    expect(unnamed).toEqual([]);
  });

  test("each function or type a table row names is in one of that row's modules", () => {
    const wrong = tableRows().flatMap((r) => {
      const sources = resolveCells(r.cells, r.base)
        .named.filter((f) => /\.(ts|tsx)$/.test(f) && !f.includes("*"))
        .map((f) => readFileSync(join(REPO, f), "utf8"));
      if (!sources.length) return [];
      const word = (name: string) => new RegExp(`(^|[^\\w$])${name}([^\\w$]|$)`, "m");
      return r.cells
        .flatMap(tokens)
        .filter(isName)
        .filter((n) => !sources.some((src) => word(n.split(".").pop()!).test(src)))
        .map((n) => `${n} (in: ${r.line.slice(0, 60)})`);
    });
    expect(wrong).toEqual([]);
  });

  test("the three traces are there, and each names files by their full paths, all of which exist", () => {
    const all = traces();
    expect(all.size).toBe(3);
    const bad = [...all.values()].flat().flatMap((step) =>
      tokens(step)
        .filter(isPath)
        .filter((t) => !t.includes("/") || !exists(t)),
    );
    expect(bad).toEqual([]);
  });

  test("each function a trace step names is in a file that trace has visited by then", () => {
    const wrong: string[] = [];
    for (const [heading, steps] of traces()) {
      const visited: string[] = [];
      for (const step of steps) {
        visited.push(...tokens(step).filter((t) => isPath(t) && /\.(ts|tsx)$/.test(t) && exists(t)));
        const sources = visited.map((f) => readFileSync(join(REPO, f), "utf8"));
        for (const name of tokens(step).filter(isName)) {
          const member = name.split(".").pop()!;
          if (!sources.some((src) => defines(src, member)))
            wrong.push(`${name} (${heading.slice(4, 50)}, step ${step.split(".")[0]})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
