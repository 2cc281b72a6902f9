// drive init from where the user stands: an installed binary with no dist/ beside it, a path with a space.
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { hostBinary, laptop, ok, run, tempDir } from "./helpers.ts";

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

  test.skipIf(process.platform === "win32")(
    "to a path with a space: the next-step command, pasted into a shell, runs the drive's launcher",
    async () => {
      const base = tempDir("mindsave-newcomer-drive-");
      const pc = laptop("ada", base);
      // Built binaries for this host only: a stand-in that says it ran.
      const from = join(base, "built");
      const exe = join(from, `${process.platform}-${process.arch}`, "mindsave");
      mkdirSync(dirname(exe), { recursive: true });
      writeFileSync(exe, '#!/bin/sh\necho "launched: $*"\n');
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
    },
  );
});
