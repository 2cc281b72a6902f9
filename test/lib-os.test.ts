// src/lib/os.ts keeps node:os out of a command's start: its answers must be the module's own.
import { expect, test } from "bun:test";
import * as nodeOs from "node:os";
import { homedir, hostname, tmpdir } from "../src/lib/os.ts";

test("hostname, homedir and tmpdir are what node:os says (on Linux the name is read from /proc)", () => {
  expect(hostname()).toBe(nodeOs.hostname());
  expect(homedir()).toBe(nodeOs.homedir());
  expect(tmpdir()).toBe(nodeOs.tmpdir());
});
