// Three defects a new user's walkthrough found, each through the real CLI on a real store: a
// secret's value cut short at a symbol (`(`, `&`, `,`) and stored whole or in part; a Windows
// network (UNC) path restored as a file inside the project; and an overflow snapshot silently
// losing its Layer 2 when the full snapshot it built on was deleted.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import nodePath, { join } from "node:path";
import { run, sql, projectOnLaptop } from "./helpers.ts";
import { events, payload, Transcript } from "./claude-fixtures.ts";
import { isAbsoluteAny, toHostPath, toStoredPath } from "../src/engine/projects/paths.ts";

const fixture = projectOnLaptop;

/** Every file under `dir`, read whole (the store, its WAL, shared memory and journal). */
function bytesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? bytesUnder(p) : [readFileSync(p)];
  });
}

/** The fragments of the walkthrough's secrets that must never reach a store file. */
const FRAGMENTS = ["Ab1!cd", "(ef)gh", "Tr0ub4dor", "&3x", "abc123,def456", "def456"];
const leaked = (home: string): string[] => FRAGMENTS.filter((f) => bytesUnder(home).some((b) => b.includes(f)));

describe("secrets: a key=value secret is redacted whole, up to the next space", () => {
  test("save: a bracket, an ampersand or a comma inside the value no longer cuts it; every spelling and separator", async () => {
    const t = fixture("mindsave-walk-secret-");
    const state = [
      "password=Ab1!cd(ef)gh;",
      "then password=Tr0ub4dor&3x",
      "and secret=abc123,def456.",
      "PASSWORD: 'Ab1!cd(ef)gh'",
      '"api_key": "abc123,def456"',
      "(DB_PWD=Tr0ub4dor&3x)",
      "pwd:Tr0ub4dor&3x",
      '-e "AUTH_TOKEN=Ab1!cd(ef)gh"',
      "--passwd Tr0ub4dor&3x",
      "配置 passwd=Ab1!cd(ef)gh，完成",
    ].join(" ");
    await t.okCli(["save", "--goal", "g", "--state", state, "--next", "n"]);
    const loaded = await t.json(["load", "--latest"]);
    expect(loaded.layer1.state).toBe([
      "password=[REDACTED:password];",
      "then password=[REDACTED:password]",
      "and secret=[REDACTED:generic-api-key].",
      "PASSWORD: '[REDACTED:password]'",
      '"api_key": "[REDACTED:generic-api-key]"',
      "(DB_PWD=[REDACTED:password])",
      "pwd:[REDACTED:password]",
      '-e "AUTH_TOKEN=[REDACTED:generic-api-key]"',
      "--passwd [REDACTED:password]",
      "配置 passwd=[REDACTED:password]，完成",
    ].join(" "));
    expect(leaked(t.home)).toEqual([]);
  });

  test("save: ordinary prose and code that names a secret stay byte for byte", async () => {
    const t = fixture("mindsave-walk-prose-");
    const state = [
      "the password field is required;",
      "token budget: 800;",
      "const token = crypto.randomBytes(32);",
      'token=os.environ["TOKEN"]',
      "<Input password={password} />",
      "secret: a,b",
      "password=${DB_PASSWORD}&user=app",
    ].join(" ");
    await t.okCli(["save", "--goal", "g", "--state", state, "--next", "n"]);
    expect((await t.json(["load", "--latest"])).layer1.state).toBe(state);
  });

  test("a Stop hook's last_assistant_message: redacted whole before it is stored", async () => {
    const t = fixture("mindsave-walk-stop-");
    const tr = new Transcript(t.base, t.repo, "walk-1");
    tr.prompt("Set up the staging database");
    tr.tool("Edit", { file_path: join(t.repo, "src/auth.ts"), old_string: "1", new_string: "2" }, 30_000);
    const reply = "Done: password=Ab1!cd(ef)gh, then password=Tr0ub4dor&3x and secret=abc123,def456 are in the vault.";
    const r = await run(["hook", "stop", "--home", t.home], { cwd: t.repo, env: t.pc.env, stdin: JSON.stringify(payload("Stop", { sessionId: "walk-1", path: tr.path, cwd: t.repo }, events.stop(reply))) });
    expect(r.code).toBe(0);
    const rows = await sql(t.db, "SELECT state, layer3 FROM snapshots WHERE deleted = 0");
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.state)).toContain("Done: password=[REDACTED:password], then password=[REDACTED:password] and secret=[REDACTED:generic-api-key] are in the vault.");
    expect(leaked(t.home)).toEqual([]);
  });

  test("scan finds what an older version stored (whole, or a tail past its tag); --fix redacts it; then clean", async () => {
    const t = fixture("mindsave-walk-scan-");
    const saved = await t.json(["save", "--goal", "g", "--state", "s", "--next", "n"]);
    // As an older version stored them: the first two whole, the third with its tail after the tag.
    const old = "password=Ab1!cd(ef)gh secret=abc123,def456 password=[REDACTED:password]&3x";
    await sql(t.db, "UPDATE snapshots SET state = ? WHERE id = ?", [old, saved.id]);
    const scan = await t.cli(["scan", "--json"]);
    expect(scan.code).toBe(1);
    for (const f of FRAGMENTS) expect(scan.stdout + scan.stderr).not.toContain(f);
    const found = JSON.parse(scan.stdout).findings.filter((f: any) => f.table === "snapshots" && f.field === "state");
    expect(found.map((f: any) => [f.kind, f.preview])).toEqual([["password", "…(12)"], ["generic-api-key", "…(13)"], ["password", "…(3)"]]);
    expect((await t.cli(["scan", "--fix"])).code).toBe(0);
    const [row] = await sql(t.db, "SELECT state FROM snapshots WHERE id = ?", [saved.id]);
    expect(row!.state).toBe("password=[REDACTED:password] secret=[REDACTED:generic-api-key] password=[REDACTED:password]");
    expect((await t.cli(["scan"])).code).toBe(0);
  });
});

describe("paths: a Windows network (UNC) path stays absolute", () => {
  test("the path functions, on both flavours", () => {
    const p = nodePath.posix;
    const w = nodePath.win32;
    for (const unc of ["\\\\fileserver\\share\\notes.md", "//fileserver/share/notes.md", "\\\\fileserver\\share\\old\\..\\notes.md"]) {
      expect(isAbsoluteAny(unc)).toBe(true);
      // From the root or a folder under it: never a file inside the project.
      expect(toStoredPath(unc, "/repo", "/repo", p)).toBe("//fileserver/share/notes.md");
      expect(toStoredPath(unc, "/repo", "/repo/src", p)).toBe("//fileserver/share/notes.md");
      expect(toStoredPath(unc, "C:\\repo", "C:\\repo", w)).toBe("//fileserver/share/notes.md");
    }
    expect(toStoredPath("C:\\Users\\ada\\notes.md", "/repo", "/repo/src", p)).toBe("C:/Users/ada/notes.md");
    expect(toHostPath("//fileserver/share/notes.md", "/home/ada/repo", p)).toBe("//fileserver/share/notes.md");
    expect(toHostPath("//fileserver/share/notes.md", "C:\\repo", w)).toBe("\\\\fileserver\\share\\notes.md");
    // A project on a share: its files are stored relative to it.
    expect(toStoredPath("\\\\fileserver\\share\\shop\\src\\a.ts", "\\\\fileserver\\share\\shop", "\\\\fileserver\\share\\shop", w)).toBe("src/a.ts");
    // POSIX paths are as before.
    expect(toStoredPath("/etc/hosts", "/repo", "/repo", p)).toBe("/etc/hosts");
    expect(toStoredPath("src\\b.ts", "/repo", "/repo", p)).toBe("src/b.ts");
  });

  test("save --active-file '\\\\server\\share\\…': stored as //server/share/…, restored as that, not under the root", async () => {
    const t = fixture("mindsave-walk-unc-");
    mkdirSync(join(t.repo, "src"), { recursive: true });
    const r = await t.okCli(["save", "--goal", "g", "--state", "s", "--next", "n", "--active-file", "\\\\fileserver\\share\\notes.md", "--active-file", "//fileserver/share/plan.md", "--active-file", "C:\\work\\todo.md"], { cwd: join(t.repo, "src") });
    expect(r.stderr).toContain("//fileserver/share/notes.md");
    const [row] = await sql(t.db, "SELECT active_files FROM snapshots WHERE deleted = 0");
    expect(JSON.parse(String(row!.active_files)).map((f: { path: string }) => f.path)).toEqual(["//fileserver/share/notes.md", "//fileserver/share/plan.md", "C:/work/todo.md"]);
    const loaded = await t.json(["load", "--latest"]);
    expect(loaded.layer1.active_files).toEqual(["//fileserver/share/notes.md", "//fileserver/share/plan.md", "C:/work/todo.md"]);
    const block = (await t.okCli(["load", "--latest"])).stdout;
    expect(block).toContain("//fileserver/share/notes.md");
    expect(block).not.toContain(join(t.repo, "fileserver"));
  });
});

describe("overflow snapshots: deleting the full snapshot one builds on", () => {
  test("its Layer 2 comes from the newest older full snapshot still there; delete says so; none left: Layer 1 only", async () => {
    const t = fixture("mindsave-walk-ovf-");
    const older = (await t.json(["save", "--goal", "older plan", "--state", "s", "--next", "n", "--constraint", "no Redis"])).saved;
    const base = (await t.json(["save", "--goal", "newer plan", "--state", "s", "--next", "n", "--constraint", "no Kafka"])).saved;
    const ovf = (await t.json(["save", "--overflow", "--goal", "context nearly full", "--state", "s", "--next", "n"])).saved;
    // A full snapshot saved after the overflow one is no part of it.
    const later = (await t.json(["save", "--goal", "later plan", "--state", "s", "--next", "n", "--constraint", "no Mongo"])).saved;
    const layer2 = async () => (await t.json(["load", ovf])).layer2.constraints;
    const header = async () => (await t.okCli(["load", ovf])).stdout.split("\n")[1];
    expect(await header()).toContain(`overflow (Layer 1; Layer 2 from ${base})`);
    expect(await layer2()).toEqual(["no Kafka"]);

    const del = await t.cli(["snapshots", "delete", base]);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe(`Deleted ${base}.\n`);
    expect(del.stderr).toContain(`${ovf} took its Layer 2 from ${base}; it now takes it from ${older}.`);
    expect(await header()).toContain(`overflow (Layer 1; Layer 2 from ${older})`);
    expect(await layer2()).toEqual(["no Redis"]);

    // Deleting a full snapshot nothing builds on, or the overflow one's newer neighbour, warns of nothing.
    const quiet = await t.cli(["snapshots", "delete", later]);
    expect(quiet).toMatchObject({ code: 0, stderr: "" });

    const last = await t.json(["snapshots", "delete", older]);
    expect(last.layer2_moved).toEqual([{ overflow: ovf, layer2_from: null }]);
    expect(last.warnings).toEqual([`${ovf} took its Layer 2 from ${older}; no older full snapshot is left, so it now restores Layer 1 only.`]);
    expect(await header()).toContain("overflow (Layer 1 only)");
    expect(await layer2()).toEqual([]);
  });
});
