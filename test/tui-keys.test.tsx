// Esc then a key typed fast (one read, "\x1bq") in the TUI is Esc, then the key; Alt keys in a text field.
import { afterEach, describe, expect, test } from "bun:test";
import type { Key } from "ink";
import { rulesHere } from "../src/engine/memory/rules.ts";
import { escapeThenKey } from "../ui/hooks/useKeys.ts";
import { editField, field } from "../ui/hooks/textEdit.ts";
import { closeAll, KEY, mount, webappPicker as picker, webappStore as store } from "./tui-harness.tsx";

afterEach(closeAll);

describe("Esc then a key in one read: Esc, then the key", () => {
  test("snapshot view: Esc goes back to the picker, q then to the projects list; Esc Esc does the same", async () => {
    const { session, projectId } = await store(["alpha", "beta"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 2 snapshots"), "the picker");
    h.press(KEY.enter);
    await h.until((x) => x.includes("goal         beta"), "the snapshot");
    h.press("\x1bq");
    await h.until((x) => x.includes("Projects (1)"), "the projects list, two screens back");
    expect(h.exited.called).toBe(false);
    h.press(KEY.enter, KEY.enter);
    await h.until((x) => x.includes("goal         beta"), "the snapshot again");
    h.press("\x1b\x1b");
    await h.until((x) => x.includes("Projects (1)"), "the projects list after Esc Esc");
  });

  test("picker: Esc clears the filter, then j moves in the whole list; typing in the filter, Esc q leaves it and goes back", async () => {
    const { session, projectId } = await store(["alpha", "beta", "gamma"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 3 snapshots"), "the picker");
    h.press("/", "beta", KEY.enter);
    await h.until((x) => x.includes("1 of 3 match") && /› {2}beta_/.test(x), "the filter kept");
    h.press("\x1bj");
    await h.until(
      (x) => x.includes("webapp · 3 snapshots") && /› {2}beta_/.test(x) && x.includes("press / to filter"),
      "the filter cleared and the second row selected",
    );
    h.press("/", "gam");
    await h.until((x) => x.includes("1 of 3 match") && x.includes("type to filter"), "typing in the filter");
    h.press("\x1bq");
    await h.until((x) => x.includes("Projects (1)"), "the projects list");
  });

  test("a form: Esc cancels it, q then goes back; the help overlay: Esc closes it, q then goes back", async () => {
    const { session, projectId } = await store(["rules"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("R", "a", "Never push to main");
    await h.until((x) => x.includes("Add a rule") && x.includes("Never push to main"), "the typed rule");
    h.press("\x1bq");
    await h.until(
      (x) => x.includes("webapp · 1 snapshot") && !x.includes("Standing rules"),
      "the picker, the form cancelled",
    );
    expect((await rulesHere(session)).rules).toEqual([]);
    h.press("?");
    await h.until((x) => x.includes("Keys · snapshots"), "the picker's keys");
    h.press("\x1bq");
    await h.until((x) => x.includes("Projects (1)"), "the projects list");
  });

  test("in a text field, Alt+b/f (Option+←/→ on macOS) move by word and Alt+Backspace deletes one: the field stays open", async () => {
    const { session, projectId } = await store(["alpha"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("/", "fix the login");
    await h.until((x) => x.includes("fix the login"), "the typed words");
    h.press("\x1bb", "x");
    await h.until((x) => x.includes("fix the xlogin"), "x typed before the last word");
    h.press("\x1bf", "\x1b\x7f", "logout");
    await h.until(
      (x) => x.includes("fix the logout") && x.includes("type to filter"),
      "the last word deleted and another typed, still typing",
    );
    expect(editField(field("a b c"), "f", { meta: true })).toEqual(field("a b c"));
    expect(editField({ text: "a b c", cursor: 0 }, "f", { meta: true })).toEqual({
      text: "a b c",
      cursor: 1,
    });
  });

  test("in a text field, Ctrl-W deletes the word before the cursor, Ctrl-K what is after it, Ctrl-U what is before it", async () => {
    const { session, projectId } = await store(["alpha"]);
    const h = mount(session, { initial: picker(projectId) });
    await h.until((x) => x.includes("webapp · 1 snapshot"), "the picker");
    h.press("/", "fix the login");
    await h.until((x) => x.includes("fix the login"), "the typed words");
    h.press("\x17", "logout");
    await h.until((x) => x.includes("fix the logout"), "the last word deleted, another typed");
    h.press("\x1bb", "\x0b", "signup");
    await h.until((x) => x.includes("fix the signup"), "the word after the cursor deleted, another typed");
    h.press("\x15", "omega");
    await h.until(
      (x) => x.includes("omega") && !x.includes("fix the") && x.includes("type to filter"),
      "all before the cursor deleted, still typing",
    );
    expect(editField({ text: "a b c", cursor: 3 }, "u", { ctrl: true })).toEqual({ text: " c", cursor: 0 });
    expect(editField({ text: "a b c", cursor: 3 }, "k", { ctrl: true })).toEqual({ text: "a b", cursor: 3 });
    expect(editField({ text: "a b c", cursor: 3 }, "w", { ctrl: true })).toEqual({ text: "a  c", cursor: 2 });
  });

  test("escapeThenKey: any Alt key is Esc then the key, but the word keys while typing", () => {
    const key = (k: Partial<Key>) => ({ meta: true, ...k }) as Key;
    expect(escapeThenKey("q", key({}), false)!.map(([i, k]) => [i, !!k.escape, k.meta])).toEqual([
      ["", true, false],
      ["q", false, false],
    ]);
    expect(escapeThenKey("Q", key({ shift: true }), true)![1][1].shift).toBe(true);
    expect(escapeThenKey("", key({ escape: true }), false)!.map(([, k]) => k.escape)).toEqual([true, true]);
    expect(escapeThenKey("", key({ return: true }), false)![1][1].return).toBe(true);
    expect(escapeThenKey("b", key({}), true)).toBeNull();
    expect(escapeThenKey("b", key({}), false)).not.toBeNull();
    expect(escapeThenKey("q", key({ meta: false }), false)).toBeNull();
  });
});
