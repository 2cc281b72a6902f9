// What a new user hit on a first afternoon: the MCP tools named in `mcp --help` and the README, the
// README's command table against each command's --help, `drive init` from an installed binary and
// to a path with a space, doctor's sizes, `diff` naming a step added already done once, and in the
// TUI: the picker after `d`, the delete question's name, the failure graph's title at 80 columns.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Command } from "commander";
import { buildProgram } from "../src/cli.ts";
import { saveSnapshot } from "../src/engine/snapshots/save.ts";
import { fromFields } from "../src/engine/snapshots/input.ts";
import { projectSnapshots } from "../src/engine/snapshots/catalog.ts";
import { CLI, REPO, childEnv, gitRepo, hostBinary, laptop, ok, run, tempDir } from "./helpers.ts";
import { closeAll, KEY, mount, openStore } from "./tui-harness.tsx";
import { resolveProject } from "../src/engine/projects/resolve.ts";

/** A laptop with its own home folder beside it and a git repo, under one temp dir. */
function newcomer(prefix: string) {
  const base = tempDir(prefix);
  const home = join(base, "home");
  mkdirSync(home);
  const pc = laptop("ada", base);
  return { base, home, pc, repo: () => gitRepo(join(base, "repo")) };
}

const README = readFileSync(join(REPO, "README.md"), "utf8");
const flat = (s: string) => s.replace(/\s+/g, " ");

/** A comma-separated list after `label` up to the next ";", ")" or the end, e.g. "tools: save, load;" → [save, load]. */
function listAfter(text: string, label: RegExp): string[] {
  const m = new RegExp(`${label.source}([a-z, ]+)(?:[;)]|$)`).exec(flat(text));
  if (!m) throw new Error(`no list after ${label} in:\n${text}`);
  return m[1].split(",").map((s) => s.trim()).filter(Boolean).sort();
}

describe("the MCP server's tools, as help and the README name them", () => {
  let client: Client | undefined;
  afterAll(async () => void (await client?.close()));

  test("mcp --help and the README list every tool (and prompt) a real server registers", async () => {
    const { base, home, pc } = newcomer("mindsave-newcomer-mcp-");
    const transport = new StdioClientTransport({ command: CLI[0], args: [...CLI.slice(1), "mcp", "--home", home], cwd: base, env: childEnv(pc.env), stderr: "pipe" });
    client = new Client({ name: "newcomer-test", version: "0.0.0" });
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    expect(tools.length).toBeGreaterThan(5);

    const help = (await ok(["mcp", "--help"])).stdout;
    expect(listAfter(help, /tools: /)).toEqual(tools);
    expect(listAfter(help, /prompts: /)).toEqual(prompts);
    // The README's "Use it with any MCP client" line.
    const line = README.split("\n").find((l) => l.startsWith("mindsave mcp ") && l.includes("an MCP server on stdio"));
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
      const own = help.slice(help.indexOf("\nOptions:"), help.indexOf("\nGlobal Options:") === -1 ? undefined : help.indexOf("\nGlobal Options:"));
      const flags = [...own.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1]).filter((f) => f !== "--help");
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
      const mine = rows.filter((r) => [...r[0].matchAll(/`([^`]+)`/g)].some((m) => new RegExp(`^${path[0]}(?![\\w-])`).test(m[1])));
      if (!mine.length) {
        missing.push(`no row for \`${path[0]}\``);
        continue;
      }
      const text = mine.join(" ");
      for (const word of path.slice(1)) if (!new RegExp(`(?<![\\w-])${word}(?![\\w-])`).test(text)) missing.push(`${path.join(" ")}: the subcommand`);
      for (const f of flags) if (!new RegExp(`${f}(?![\\w-])`).test(text)) missing.push(`${path.join(" ")} ${f}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("drive init, from where the user stands", () => {
  test("from an installed binary (no dist/ beside it): the error says to build in a checkout and rerun with --from, the path quoted", async () => {
    const base = tempDir("mindsave-newcomer-drive-");
    const pc = laptop("ada", base);
    const installed = join(pc.home, ".mindsave", "bin", "mindsave");
    mkdirSync(dirname(installed), { recursive: true });
    copyFileSync(await hostBinary(), installed);
    chmodSync(installed, 0o755);
    const usb = join(base, "my usb");
    mkdirSync(usb);
    const r = await run(["drive", "init", usb], { bin: [installed], cwd: base, env: pc.env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("bun run build");
    expect(r.stderr).toContain(`\`mindsave drive init '${usb}' --from CHECKOUT/dist\``);
    expect(existsSync(join(usb, "mindsave"))).toBe(false);
  }, 180_000);

  test.skipIf(process.platform === "win32")("to a path with a space: the next-step command, pasted into a shell, runs the drive's launcher", async () => {
    const base = tempDir("mindsave-newcomer-drive-");
    const pc = laptop("ada", base);
    // Built binaries for this host only: a stand-in that says it ran.
    const from = join(base, "built");
    const exe = join(from, `${process.platform}-${process.arch}`, "mindsave");
    mkdirSync(dirname(exe), { recursive: true });
    writeFileSync(exe, "#!/bin/sh\necho \"launched: $*\"\n");
    chmodSync(exe, 0o755);
    const usb = join(base, "my usb");
    mkdirSync(usb);
    const r = await ok(["drive", "init", usb, "--from", from], { cwd: base, env: pc.env });
    const next = /On any laptop, run (.+) \(macOS, Linux\)/.exec(r.stdout)?.[1];
    expect(next).toBe(`'${join(usb, "mindsave", "mindsave")}'`);
    const pasted = spawnSync("sh", ["-c", `${next} load --latest`], { cwd: base, encoding: "utf8" });
    expect(pasted.stdout.trim()).toBe("launched: load --latest");
    // The other systems are missing: the warning's command to run again is quoted too.
    expect(r.stderr).toContain(`mindsave drive init '${usb}'`);
    // No Windows binary, so no Windows launcher, and the next step names none.
    expect(existsSync(join(usb, "mindsave", "mindsave.cmd"))).toBe(false);
    expect(r.stdout).not.toContain("mindsave.cmd");
  });
});

test("doctor gives a small store's size in KB, not \"0.0 MiB\"", async () => {
  const t = newcomer("mindsave-newcomer-doctor-");
  const { home, pc } = t;
  const repo = t.repo();
  await ok(["save", "--home", home, "--goal", "a first save"], { cwd: repo, env: pc.env });
  const db = join(home, "mindsave.db");
  const whole = statSync(db).size;
  expect(whole).toBeLessThan(1024 ** 2);
  writeFileSync(db, readFileSync(db).subarray(0, 5000)); // cut short, as a pulled drive may leave it
  const r = await run(["doctor", "--home", home], { cwd: repo, env: pc.env });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(new RegExp(`^file: +4\\.9 KB, but its header says ${(whole / 1024).toFixed(1)} KB: it was cut short$`, "m"));
  expect(r.stdout).not.toContain("MiB");
});

test("diff: a step added already completed (or started) is one line saying so, not a second \"completed:\" line", async () => {
  const t = newcomer("mindsave-newcomer-diff-");
  const { home, pc } = t;
  const repo = t.repo();
  const at = { cwd: repo, env: pc.env };
  await ok(["save", "--home", home, "--goal", "ship the limiter", "--state", "begun"], at);
  await ok(["plan", "set", "--home", home, "--item", "[x] write it", "--item", "wire it"], at);
  await ok(["save", "--home", home, "--goal", "ship the limiter", "--state", "wired"], at);
  await ok(["plan", "set", "--home", home, "--item", "[x] write it", "--item", "[x] wire it", "--item", "[x] docs", "--item", "[>] load test", "--item", "release"], at);
  const out = (await ok(["diff", "--home", home], at)).stdout;
  const plan = out.slice(out.indexOf("\nPlan "));
  expect(plan.split("\n").filter((l) => l.startsWith("  ")).join("\n") + "\n").toBe([
    "  completed: wire it",
    "  + step: docs (completed)",
    "  + step: load test (in progress)",
    "  + step: release",
    "",
  ].join("\n"));
});

describe("TUI", () => {
  afterEach(closeAll);

  async function store(goals: string[], topic?: string) {
    const s = await openStore("mindsave-newcomer-tui-");
    for (const goal of goals) await saveSnapshot(s.session, { input: fromFields({ goal, state: `state of ${goal}`, next_action: "go on", ...(topic ? { topic } : {}) }) });
    const projectId = (await resolveProject(s.session, { create: false }))!.project.id;
    return { ...s, projectId };
  }

  test("d in the snapshot view, then back: the picker shows the new status, its selection kept", async () => {
    const { session, projectId } = await store(["alpha task", "beta task"]);
    const h = mount(session, { initial: [{ name: "home" }, { name: "picker", projectId, projectName: "webapp" }] });
    await h.until((x) => x.includes("webapp · 2 snapshots"), "the picker");
    h.press("j", KEY.enter);
    await h.until((x) => x.includes("goal         alpha task"), "the older snapshot");
    h.press("d");
    await h.until((x) => x.includes("Marked") && x.includes("completed"), "marked completed");
    expect((await projectSnapshots(session, projectId)).find((s) => s.goal === "alpha task")!.status).toBe("completed");
    h.press("q");
    const f = await h.until((x) => x.includes("webapp · 2 snapshots") && /alpha task/.test(x) && / completed /.test(x), "the picker with the new status");
    const row = f.split("\n").find((l) => l.includes("alpha task"))!;
    expect(row).toMatch(/^› .* completed /);
    expect(f.split("\n").find((l) => l.includes("beta task"))).toMatch(/in progress/);
  });

  test("the delete question cuts a long snapshot name in its middle: its date and -2 stay", async () => {
    const { session, projectId } = await store(["one", "two"], "refactor-the-authentication-layer");
    const [newest] = await projectSnapshots(session, projectId);
    expect(newest.name).toMatch(/-2$/);
    const h = mount(session, { initial: [{ name: "home" }, { name: "snapshot", snapshotId: newest.id }], columns: 60, fits: true });
    await h.until((x) => x.includes("goal         two"), "the snapshot");
    h.press("x");
    const f = await h.until((x) => x.includes("y to delete"), "the question");
    const asked = /Delete (.+)\? y to delete, any other key to keep it\./.exec(f)?.[1];
    expect(asked).toBeDefined();
    expect(asked).toContain("…");
    expect(asked!.startsWith(newest.name.slice(0, 3))).toBe(true);
    expect(asked!.endsWith(newest.name.slice(-4))).toBe(true);
  });

  test("the failure graph's title fits 80 columns with a long project name: the count and the sort show", async () => {
    const { session, projectId } = await store(["one"]);
    const h = mount(session, { initial: [{ name: "home" }, { name: "failures", projectId, projectName: "customer-billing-service-backend" }], columns: 80, fits: true });
    const f = await h.until((x) => x.includes("Failure graph"), "the failure graph");
    const title = f.split("\n")[0];
    expect(title).toContain("+ global · 0 · by repeat count");
    expect(title).toContain("Failure graph · custo");
  });
});

test("the default home a first save makes (~/.mindsave) is the owner's alone (0700): other users on the laptop cannot read the store or its backups", async () => {
  const n = newcomer("mindsave-home-mode-");
  await ok(["save", "--goal", "private work"], { cwd: n.repo(), env: n.pc.env });
  expect(statSync(join(n.pc.home, ".mindsave")).mode & 0o777).toBe(0o700);
  expect(existsSync(join(n.pc.home, ".mindsave", "mindsave.db"))).toBe(true);
});
