// `recall --tag`: the tag chooses whose cold archive a bare recall shows (never the newest snapshot's
// when that one lacks the tag), an unknown tag is refused, and a search's "nothing found" says
// whether the tag or the words found nothing. The snapshots are saved in this process; the CLI and
// the MCP server, the faces under test, run as subprocesses.
import { describe, expect, test } from "bun:test";
import { projectOnLaptop, dumpStore } from "./helpers.ts";
import { inRepo, saveText } from "./engine-setup.ts";
import { callTool, withMcp } from "./mcp-client.ts";

const snapshot = (goal: string, archive: string) =>
  `---\ngoal: ${goal}\nstate: s\nnext_action: n\n---\n${archive}\n`;

describe("recall --tag", () => {
  const t = projectOnLaptop("mindsave-recall-tag-");
  const ready = (async () => {
    await saveText(inRepo(t), snapshot("old tagged", "紧急 archive of the old one"), { tag: ["urgent"] });
    await saveText(inRepo(t), "---\ngoal: newest tagged\nstate: s\nnext_action: n\n---\n", {
      tag: ["Urgent"],
    });
    await saveText(inRepo(t), snapshot("newest of all", "perf archive, 第3轮"), { tag: ["perf"] });
  })();

  test("without a keyword: the newest tagged snapshot with an archive, not the project's newest", async () => {
    await ready;
    const r = await t.okCli(["recall", "--tag", "urgent"]);
    expect(r.stdout).toContain("紧急 archive of the old one");
    expect(r.stdout).not.toContain("perf archive");
    // The newest tagged one has no archive: the reader is told which one was passed over.
    expect(r.stdout).toContain('The newest snapshot tagged "urgent", newest_tagged_');
    const j = await t.json(["recall", "--tag", "URGENT", "--json"]);
    expect(j.layer3).toContain("紧急 archive of the old one");
  });

  test("an unknown tag, a tag with --snapshot, --all-projects without a keyword: one sentence, exit 1, the store as before", async () => {
    await ready;
    const before = await dumpStore(t.db);
    const unknown = await t.cli(["recall", "--tag", "nosuch"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toBe('mindsave: No snapshot of shop is tagged "nosuch".\n');
    const both = await t.cli(["recall", "--tag", "urgent", "--snapshot", "1"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("give only one of them");
    // Every project's archive is no one archive: refused, not this project's shown.
    const every = await t.cli(["recall", "--all-projects", "--tag", "urgent"]);
    expect(every).toMatchObject({ code: 1, stdout: "" });
    expect(every.stderr).toContain("--all-projects searches every project for a keyword");
    expect(await dumpStore(t.db)).toBe(before);
  });

  test("with a keyword: nothing found says whether the tag or the words found nothing", async () => {
    await ready;
    const words = await t.okCli(["recall", "第3轮", "--tag", "urgent"]);
    expect(words.stdout).toBe('No snapshot tagged "urgent" mentions "第3轮" in project shop.\n');
    const tag = await t.okCli(["recall", "第3轮", "--tag", "nosuch"]);
    expect(tag.stdout).toBe('No snapshot of shop is tagged "nosuch".\n');
    expect(await t.json(["recall", "第3轮", "--tag", "nosuch", "--json"])).toMatchObject({
      hits: [],
      tag: "nosuch",
      tag_carried: false,
    });
    const found = await t.okCli(["recall", "紧急", "--tag", "urgent"]);
    expect(found.stdout).toContain("old_tagged");
  });

  test("MCP recall without a keyword takes the tag too", async () => {
    await ready;
    const r = await withMcp(t.home, t.repo, t.pc.env, (c) => callTool(c, "recall", { tag: "urgent" }));
    expect(r.structuredContent.layer3).toContain("紧急 archive of the old one");
    expect(r.content[0].text).toContain('The newest snapshot tagged "urgent"');
  });
});
