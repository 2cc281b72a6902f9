// textEdit: a one-line field and its cursor, edited by what shows as one character (a whole emoji,
// a CJK character, a letter with its accents) or by word. Pure functions, tested directly.
import { describe, expect, test } from "bun:test";
import { editField, field, isWordKey, type EditKey, type Field } from "../../ui/hooks/textEdit.ts";

/** Applies keys in turn, as a screen does; a key the field does not take leaves it as it was. */
function keys(f: Field, ...steps: [string, EditKey?][]): Field {
  return steps.reduce((cur, [input, key]) => editField(cur, input, key ?? {}) ?? cur, f);
}

// a, 中, a thumbs-up with a skin tone (four UTF-16 units, one character), b.
const MIXED = "a中👍🏽b";

describe("textEdit: moving the cursor", () => {
  test("a new field's cursor is at the end of its text", () => {
    expect(field(MIXED)).toEqual({ text: MIXED, cursor: 7 });
    expect(field()).toEqual({ text: "", cursor: 0 });
  });

  test("←/→ step over one whole character: an emoji with its modifier, a CJK character", () => {
    const f = field(MIXED);
    expect(keys(f, ["", { leftArrow: true }]).cursor).toBe(6);
    expect(keys(f, ["", { leftArrow: true }], ["", { leftArrow: true }]).cursor).toBe(2);
    expect(
      keys(f, ["", { leftArrow: true }], ["", { leftArrow: true }], ["", { leftArrow: true }]).cursor,
    ).toBe(1);
    expect(keys({ text: MIXED, cursor: 2 }, ["", { rightArrow: true }]).cursor).toBe(6);
  });

  test("← at the start and → at the end stay put", () => {
    expect(keys({ text: MIXED, cursor: 0 }, ["", { leftArrow: true }]).cursor).toBe(0);
    expect(keys(field(MIXED), ["", { rightArrow: true }]).cursor).toBe(7);
  });

  test("Home and Ctrl-A go to the start, End and Ctrl-E to the end", () => {
    expect(keys(field(MIXED), ["", { home: true }]).cursor).toBe(0);
    expect(keys(field(MIXED), ["a", { ctrl: true }]).cursor).toBe(0);
    expect(keys({ text: MIXED, cursor: 1 }, ["", { end: true }]).cursor).toBe(7);
    expect(keys({ text: MIXED, cursor: 1 }, ["e", { ctrl: true }]).cursor).toBe(7);
  });
});

describe("textEdit: typing and deleting at the cursor", () => {
  test("typing goes in at the cursor, and the cursor after it", () => {
    expect(keys({ text: MIXED, cursor: 1 }, ["文字"])).toEqual({ text: "a文字中👍🏽b", cursor: 3 });
  });

  test("Backspace deletes the whole character before the cursor; Delete the one after it", () => {
    expect(keys({ text: MIXED, cursor: 6 }, ["", { backspace: true }])).toEqual({ text: "a中b", cursor: 2 });
    expect(keys({ text: MIXED, cursor: 2 }, ["", { delete: true }])).toEqual({ text: "a中b", cursor: 2 });
    expect(keys({ text: MIXED, cursor: 0 }, ["", { backspace: true }])).toEqual({ text: MIXED, cursor: 0 });
    expect(keys(field(MIXED), ["", { delete: true }])).toEqual({ text: MIXED, cursor: 7 });
  });

  test("a combining accent typed after a letter joins it: the cursor stays after the whole character", () => {
    const f = keys({ text: "ab", cursor: 1 }, ["\u0301"]);
    expect(f).toEqual({ text: "a\u0301b", cursor: 2 });
    expect(keys(f, ["", { leftArrow: true }]).cursor).toBe(0);
    // A letter typed before a lone accent becomes one character with it: the cursor goes after both.
    expect(keys({ text: "\u0301x", cursor: 0 }, ["e"])).toEqual({ text: "e\u0301x", cursor: 2 });
  });

  test("tabs and line breaks in a paste are dropped: the field stays one line", () => {
    expect(keys(field("x"), ["a\tb\r\nc"])).toEqual({ text: "xabc", cursor: 4 });
  });

  test("a cursor past the end (the text shrank) acts from the end", () => {
    expect(keys({ text: "ab", cursor: 99 }, ["", { backspace: true }])).toEqual({ text: "a", cursor: 1 });
  });
});

describe("textEdit: words", () => {
  // "hello" 0-5, space, "世界" 6-8, space, "foo" 9-12: a CJK run with no spaces is one word.
  const T = "hello 世界 foo";

  test("Alt+b, Alt+← and Ctrl+← go to the start of the word before; Alt+f and Ctrl+→ to the end of the next", () => {
    expect(keys(field(T), ["b", { meta: true }]).cursor).toBe(9);
    expect(keys(field(T), ["b", { meta: true }], ["b", { meta: true }]).cursor).toBe(6);
    expect(keys(field(T), ["", { meta: true, leftArrow: true }]).cursor).toBe(9);
    expect(keys(field(T), ["", { ctrl: true, leftArrow: true }]).cursor).toBe(9);
    expect(keys({ text: T, cursor: 0 }, ["f", { meta: true }]).cursor).toBe(5);
    expect(keys({ text: T, cursor: 5 }, ["", { ctrl: true, rightArrow: true }]).cursor).toBe(8);
  });

  test("Alt+Backspace deletes the word before the cursor and the spaces after it", () => {
    expect(keys(field(T), ["", { meta: true, backspace: true }])).toEqual({ text: "hello 世界 ", cursor: 9 });
    expect(keys({ text: T, cursor: 9 }, ["", { meta: true, backspace: true }])).toEqual({
      text: "hello foo",
      cursor: 6,
    });
  });

  test("isWordKey names exactly the word keys", () => {
    expect(isWordKey("b", { meta: true })).toBe(true);
    expect(isWordKey("f", { meta: true })).toBe(true);
    expect(isWordKey("", { meta: true, backspace: true })).toBe(true);
    expect(isWordKey("", { ctrl: true, rightArrow: true })).toBe(true);
    expect(isWordKey("x", { meta: true })).toBe(false);
    expect(isWordKey("", { backspace: true })).toBe(false);
    expect(isWordKey("", { leftArrow: true })).toBe(false);
  });
});

describe("textEdit: keys that are not the field's", () => {
  test("Ctrl and Alt letters, an empty key, Enter alone and control characters are left to the screen (null)", () => {
    const f = field("ab");
    expect(editField(f, "x", { ctrl: true })).toBeNull();
    expect(editField(f, "x", { meta: true })).toBeNull();
    expect(editField(f, "", {})).toBeNull();
    expect(editField(f, "\r", {})).toBeNull();
    expect(editField(f, "\x07", {})).toBeNull();
  });
});
