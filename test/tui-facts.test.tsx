// The TUI's facts screen lines its columns up whatever the widths of the facts' texts.
import { afterEach, describe, expect, test } from "bun:test";
import { Session } from "../src/engine/session.ts";
import { addFact } from "../src/engine/memory/facts.ts";
import { width } from "../src/lib/text.ts";
import {
  closeAll,
  mount,
  SAVED_AT as T0,
  testClock,
  webappPicker as picker,
  webappStore as store,
} from "./tui-harness.tsx";

afterEach(closeAll);

const MIN = 60_000;

describe("facts screen columns", () => {
  /** Where each column starts (display columns) on every fact row and on the heading row. */
  function columnStarts(frame: string) {
    const rows = frame.split("\n").filter((l) => /^[› ] [✓✗] /.test(l));
    const heading = frame.split("\n").find((l) => /^ {4}fact /.test(l))!;
    const at = (line: string, re: RegExp) => {
      const m = re.exec(line);
      expect(m).not.toBeNull();
      return width(line.slice(0, m!.index + 1));
    };
    return {
      rows: rows.length,
      confidence: [
        at(heading, / (confidence|conf\.) /),
        ...rows.map((r) => at(r, / (low|medium|high) +(project|global) /)),
      ],
      scope: [at(heading, / scope /), ...rows.map((r) => at(r, / (project|global) /))],
      state: [at(heading, / state$/), ...rows.map((r) => at(r, / (expires in|EXPIRED|does not expire)/))],
    };
  }

  for (const columns of [80, 60]) {
    test(`English and Chinese facts of any length: confidence, scope and state start at one display column on every row (${columns} columns)`, async () => {
      const { session, projectId } = await store(["facts"]);
      const at = (t: number) =>
        Session.open(
          { home: session.home.dir, cwd: session.cwd, env: session.env, now: () => new Date(t) },
          { write: true },
        );
      const earlier = await at(T0 - 2 * 60 * MIN);
      await addFact(earlier, "预发布数据库只读", { ttl: "1h" });
      earlier.close();
      const now = await at(T0);
      await addFact(now, "CI is slow", { ttl: "never", confidence: "low", scope: "global" });
      await addFact(now, "预发布数据库只读，迁移完成前不要写入任何数据，包括测试账号和演示数据", {
        ttl: "3d",
        confidence: "high",
      });
      await addFact(
        now,
        "the deploy lock is held by Ana while she migrates the orders table to the new schema",
        { ttl: "2d" },
      );
      await addFact(now, "部署锁 held by Ana", { ttl: "4h", confidence: "high" });
      now.close();
      const clock = testClock(T0);
      const h = mount(session, {
        initial: [...picker(projectId), { name: "facts", projectId, projectName: "webapp" }],
        columns,
        rows: 24,
        fits: true,
        now: clock.now,
        every: clock.every,
      });
      // The counts are never cut: at 60 columns the project's name gives way.
      const f = await h.until(
        (x) => x.includes(" + global · 5 · 1 expired") && x.includes("EXPIRED"),
        "the facts",
      );
      const starts = columnStarts(f);
      expect(starts.rows).toBe(5);
      for (const col of [starts.confidence, starts.scope, starts.state]) expect(new Set(col).size).toBe(1);
      // The states are whole; the long texts gave way.
      expect(f).toContain("EXPIRED 60 min ago");
      expect(f).toContain("does not expire");
      expect(f).toMatch(/ the deploy lock is h[^…\n]*… {2}/);
    });
  }
});
