// An import that at least doubles the snapshots' full-text index leaves it one segment (each
// segment costs every search a lookup); a smaller one leaves the merging to FTS5.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitRepo, laptop, okJson, sql, tempDir } from "./helpers.ts";

/** Snapshot files named `${prefix}_NN`, one a minute from `from`, each with its own word and a shared one. */
function seedFiles(repo: string, prefix: string, count: number, from: number): string[] {
  const dir = join(repo, ".mindsave", "snapshots");
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const name = `${prefix}_${String(i).padStart(2, "0")}`;
    const at = new Date(from + i * 60_000).toISOString();
    writeFileSync(
      join(dir, `${name}.md`),
      `---\nsnapshot_id: ${name}\ncreated_at: "${at}"\ngoal: "重构认证模块 ${prefix} 步骤 ${i}"\n---\nLayer 3 of ${name}\n`,
    );
    return name;
  });
}

test("a large import leaves the search index one segment, every snapshot found; a small one into it is not merged", async () => {
  const base = tempDir("mindsave-import-merge-");
  const pc = laptop("alpha", base);
  const home = join(base, "store");
  mkdirSync(home);
  const db = join(home, "mindsave.db");
  const segments = async () =>
    Number((await sql(db, "SELECT count(DISTINCT segid) AS n FROM snapshot_search_idx"))[0]!.n);
  // Two files a batch (500 in normal use): each batch's index rows are a segment of their own.
  const env = { ...pc.env, MINDSAVE_IMPORT_BATCH: "2" };
  const first = gitRepo(join(base, "shop"));
  const names = seedFiles(first, "shop", 24, Date.UTC(2026, 0, 1));

  const r = await okJson(["import", first, "--home", home], { cwd: first, env });
  expect(r.snapshots.imported).toEqual(names);
  expect(await segments()).toBe(1);
  const found = await okJson(["recall", "认证模块", "--limit", "100", "--home", home], {
    cwd: first,
    env,
  });
  expect(found.hits.map((h: { name: string }) => h.name).sort()).toEqual(names);

  // Six more into 24: not doubled, so not merged (three batches, a segment each, beside the one).
  const second = gitRepo(join(base, "billing"));
  seedFiles(second, "billing", 6, Date.UTC(2026, 1, 1));
  await okJson(["import", second, "--home", home], { cwd: second, env });
  expect(await segments()).toBeGreaterThan(1);
});
