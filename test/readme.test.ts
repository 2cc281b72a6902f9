// The README and --help name what the program has: every MCP tool and prompt a real server
// registers, every command, subcommand and long option.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Command } from "commander";
import { buildProgram } from "../src/cli.ts";
import { CLI, REPO, childEnv, laptopAndHome as newcomer, ok } from "./helpers.ts";

const README = readFileSync(join(REPO, "README.md"), "utf8");
const flat = (s: string) => s.replace(/\s+/g, " ");

/** A comma-separated list after `label` up to the next ";", ")" or the end, e.g. "tools: save, load;" → [save, load]. */
function listAfter(text: string, label: RegExp): string[] {
  const m = new RegExp(`${label.source}([a-z, ]+)(?:[;)]|$)`).exec(flat(text));
  if (!m) throw new Error(`no list after ${label} in:\n${text}`);
  return m[1]
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .sort();
}

describe("the MCP server's tools, as help and the README name them", () => {
  let client: Client | undefined;
  afterAll(async () => void (await client?.close()));

  test("mcp --help and the README list every tool (and prompt) a real server registers", async () => {
    const { base, home, pc } = newcomer("mindsave-newcomer-mcp-");
    const transport = new StdioClientTransport({
      command: CLI[0],
      args: [...CLI.slice(1), "mcp", "--home", home],
      cwd: base,
      env: childEnv(pc.env),
      stderr: "pipe",
    });
    client = new Client({ name: "newcomer-test", version: "0.0.0" });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    expect(tools.length).toBeGreaterThan(5);

    const help = (await ok(["mcp", "--help"])).stdout;
    expect(listAfter(help, /tools: /)).toEqual(tools);
    expect(listAfter(help, /prompts: /)).toEqual(prompts);
    // The README's "Use it with any MCP client" line.
    const line = README.split("\n").find(
      (l) => l.startsWith("mindsave mcp ") && l.includes("an MCP server on stdio"),
    );
    expect(line).toBeDefined();
    expect(listAfter(line!, /tools /)).toEqual(tools);
    expect(listAfter(line!, /prompts /)).toEqual(prompts);
  });
});

/** The rows of the README's command table (section "Use it"), each cell split on unescaped "|". */
function commandRows(): string[][] {
  const start = README.indexOf("| command | what it does |");
  expect(start).toBeGreaterThan(0);
  const rows: string[][] = [];
  for (const line of README.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split(/(?<!\\)\|/).slice(1, -1));
  }
  return rows;
}

/** Every command and subcommand: its path of names and the long options its --help lists (not the global ones). */
function commands(): { path: string[]; flags: string[] }[] {
  const out: { path: string[]; flags: string[] }[] = [];
  const walk = (c: Command, path: string[]) => {
    for (const sub of c.commands) {
      const p = [...path, sub.name()];
      const help = sub.helpInformation();
      const own = help.slice(
        help.indexOf("\nOptions:"),
        help.indexOf("\nGlobal Options:") === -1 ? undefined : help.indexOf("\nGlobal Options:"),
      );
      const flags = [...own.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)]
        .map((m) => m[1])
        .filter((f) => f !== "--help");
      out.push({ path: p, flags });
      walk(sub, p);
    }
  };
  walk(buildProgram(), []);
  return out;
}

describe("the README's command table", () => {
  test("every command has a row naming its subcommands and every long option its --help lists", () => {
    const rows = commandRows();
    const all = commands();
    // A known command with a known flag, so the walk itself is checked.
    expect(all.find((c) => c.path.join(" ") === "load")?.flags).toContain("--full");
    const missing: string[] = [];
    for (const { path, flags } of all) {
      // The rows whose first cell has a `span` starting with the command's name.
      const mine = rows.filter((r) =>
        [...r[0].matchAll(/`([^`]+)`/g)].some((m) => new RegExp(`^${path[0]}(?![\\w-])`).test(m[1])),
      );
      if (!mine.length) {
        missing.push(`no row for \`${path[0]}\``);
        continue;
      }
      const text = mine.join(" ");
      for (const word of path.slice(1))
        if (!new RegExp(`(?<![\\w-])${word}(?![\\w-])`).test(text))
          missing.push(`${path.join(" ")}: the subcommand`);
      for (const f of flags)
        if (!new RegExp(`${f}(?![\\w-])`).test(text)) missing.push(`${path.join(" ")} ${f}`);
    }
    expect(missing).toEqual([]);
  });
});
