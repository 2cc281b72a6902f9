import { test, expect, describe } from "bun:test";
import {
  COMPRESSION_RULES,
  ConstraintCompressor,
  compressLayer2,
  type CompressionResult,
} from "../src/engine/snapshots/compressor.ts";

const run = (constraints: string[], max?: number): CompressionResult =>
  new ConstraintCompressor(max).addConstraints(constraints).compress();

describe("spec example (v3.5)", () => {
  test("four styling constraints fold into one theme_system entry", () => {
    expect(run(["no tailwind", "use css variables", "avoid utility css", "no utility framework"])).toEqual({
      constraints: [],
      symbolic: {
        theme_system: {
          strategy: "css_variables",
          preferred: ["css variables"],
          rejected: ["Tailwind", "utility-first"],
          sources: 4,
        },
      },
      conflicts: [],
      dropped_duplicates: 0,
      overflow: [],
    });
  });

  test("TypeScript SDK usage: a rejection alone gets no invented strategy", () => {
    const compressor = new ConstraintCompressor(20);
    expect(compressor.addConstraint("No Tailwind CSS")).toBe(compressor);
    const result = compressor.compress();
    expect(result.symbolic).toEqual({ theme_system: { preferred: [], rejected: ["Tailwind"], sources: 1 } });
    expect("strategy" in result.symbolic.theme_system).toBe(false);
    expect(result.constraints).toEqual([]);
  });
});

describe("each category, English", () => {
  test("ui_framework", () => {
    expect(run(["No Bootstrap", "avoid component libraries"]).symbolic).toEqual({
      ui_framework: { preferred: [], rejected: ["Bootstrap", "component library"], sources: 2 },
    });
  });

  test("auth_strategy: the category word is not a subject when a specific one is named", () => {
    expect(run(["Use JWT for auth"]).symbolic).toEqual({
      auth_strategy: { strategy: "jwt", preferred: ["JWT"], rejected: [], sources: 1 },
    });
  });

  test("auth_strategy: the generic word stands alone when nothing specific is said", () => {
    expect(run(["no auth"]).symbolic).toEqual({
      auth_strategy: { preferred: [], rejected: ["auth"], sources: 1 },
    });
  });

  test("session_management", () => {
    expect(run(["no server-side sessions", "keep it stateless"]).symbolic).toEqual({
      session_management: {
        strategy: "stateless",
        preferred: ["stateless"],
        rejected: ["server-side session"],
        sources: 2,
      },
    });
  });

  test("db_access", () => {
    expect(run(["avoid ORMs, use raw SQL"]).symbolic).toEqual({
      db_access: { strategy: "raw_sql", preferred: ["raw SQL"], rejected: ["ORM"], sources: 1 },
    });
  });

  test("db_type", () => {
    expect(run(["no MongoDB", "use PostgreSQL"]).symbolic).toEqual({
      db_type: { strategy: "postgresql", preferred: ["PostgreSQL"], rejected: ["MongoDB"], sources: 2 },
    });
  });

  test("api_style holds both REST and GraphQL", () => {
    expect(run(["prefer REST over GraphQL"]).symbolic).toEqual({
      api_style: { strategy: "rest", preferred: ["REST"], rejected: ["GraphQL"], sources: 1 },
    });
    expect(run(["use gql", "no RESTful APIs"]).symbolic).toEqual({
      api_style: { strategy: "graphql", preferred: ["GraphQL"], rejected: ["REST"], sources: 2 },
    });
  });
});

describe("each category, Chinese and mixed", () => {
  test("theme_system", () => {
    expect(run(["禁止使用原子化CSS", "使用 CSS 变量"]).symbolic).toEqual({
      theme_system: {
        strategy: "css_variables",
        preferred: ["css variables"],
        rejected: ["utility-first"],
        sources: 2,
      },
    });
  });

  test("ui_framework", () => {
    expect(run(["不要用组件库", "避免使用UI框架"]).symbolic).toEqual({
      ui_framework: { preferred: [], rejected: ["component library", "UI framework"], sources: 2 },
    });
  });

  test("auth_strategy: an English keyword between Chinese characters still matches", () => {
    expect(run(["使用JWT认证"]).symbolic).toEqual({
      auth_strategy: { strategy: "jwt", preferred: ["JWT"], rejected: [], sources: 1 },
    });
  });

  test("session_management", () => {
    expect(run(["不使用服务端会话"]).symbolic).toEqual({
      session_management: { preferred: [], rejected: ["server-side session"], sources: 1 },
    });
  });

  test("db_access: a full-width comma ends the clause", () => {
    expect(run(["不要用ORM，直接写原生SQL"]).symbolic).toEqual({
      db_access: { strategy: "raw_sql", preferred: ["raw SQL"], rejected: ["ORM"], sources: 1 },
    });
  });

  test("db_type: 非关系型 is NoSQL even though it contains 关系型", () => {
    expect(run(["不要用MongoDB，使用关系型数据库"]).symbolic).toEqual({
      db_type: { strategy: "relational_db", preferred: ["relational DB"], rejected: ["MongoDB"], sources: 1 },
    });
    expect(run(["不要使用非关系型数据库"]).symbolic).toEqual({
      db_type: { preferred: [], rejected: ["NoSQL"], sources: 1 },
    });
  });

  test("api_style", () => {
    expect(run(["使用REST风格接口，不用GraphQL"]).symbolic).toEqual({
      api_style: { strategy: "rest", preferred: ["REST"], rejected: ["GraphQL"], sources: 1 },
    });
    expect(run(["避免图查询接口"]).symbolic).toEqual({
      api_style: { preferred: [], rejected: ["GraphQL"], sources: 1 },
    });
  });

  test("one constraint can speak about two categories", () => {
    const expected = {
      auth_strategy: { strategy: "jwt", preferred: ["JWT"], rejected: [], sources: 1 },
      session_management: { preferred: [], rejected: ["session"], sources: 1 },
    };
    expect(run(["用JWT代替session"]).symbolic).toEqual(expected);
    expect(run(["从session迁移到JWT"]).symbolic).toEqual(expected);
    expect(run(["use JWT instead of sessions"]).symbolic).toEqual(expected);
  });
});

describe("word boundaries (the original matched substrings)", () => {
  // With substring matching each second text would reject the subject the first prefers,
  // producing a conflict and pinning both texts.
  test("'restore' does not hit REST", () => {
    const r = run(["use REST", "don't restore old snapshots"]);
    expect(r.conflicts).toEqual([]);
    expect(r.symbolic).toEqual({
      api_style: { strategy: "rest", preferred: ["REST"], rejected: [], sources: 1 },
    });
    expect(r.constraints).toEqual(["don't restore old snapshots"]);
  });

  test("'interest' does not hit REST", () => {
    const r = run(["use REST", "no interest-only loans"]);
    expect(r.conflicts).toEqual([]);
    expect(r.constraints).toEqual(["no interest-only loans"]);
  });

  test("'authors' does not hit auth", () => {
    const r = run(["require auth", "no authors field"]);
    expect(r.conflicts).toEqual([]);
    expect(r.symbolic).toEqual({
      auth_strategy: { strategy: "auth", preferred: ["auth"], rejected: [], sources: 1 },
    });
    expect(r.constraints).toEqual(["no authors field"]);
  });

  test("'sessionStorage' does not hit session, but plurals do", () => {
    const r = run(["use sessions", "never use sessionStorage"]);
    expect(r.conflicts).toEqual([]);
    expect(r.constraints).toEqual(["never use sessionStorage"]);
    expect(run(["no cookies", "no sessions"]).symbolic).toEqual({
      session_management: { preferred: [], rejected: ["cookie", "session"], sources: 2 },
    });
  });

  test("'at rest' and 'the rest of' are not the REST style", () => {
    const r = run(["no REST APIs", "encryption at rest", "keep the rest of the code unchanged"]);
    expect(r.conflicts).toEqual([]);
    expect(r.symbolic).toEqual({ api_style: { preferred: [], rejected: ["REST"], sources: 1 } });
    expect(r.constraints).toEqual(["encryption at rest", "keep the rest of the code unchanged"]);
  });

  test("unmatched constraints stay verbatim, in input order", () => {
    const r = run(["Restore the database from backup", "no tailwind", "Sort authors alphabetically"]);
    expect(r.constraints).toEqual(["Restore the database from backup", "Sort authors alphabetically"]);
    expect(Object.keys(r.symbolic)).toEqual(["theme_system"]);
  });
});

describe("positive vs negative", () => {
  test("a stated preference is preferred, not rejected", () => {
    for (const text of ["Use JWT for auth", "使用JWT认证", "prefer JWT", "JWT only"]) {
      expect(run([text]).symbolic.auth_strategy).toEqual({
        strategy: "jwt",
        preferred: ["JWT"],
        rejected: [],
        sources: 1,
      });
    }
  });

  test("negation markers, English and Chinese", () => {
    const texts = [
      "no tailwind",
      "not tailwind",
      "don't use tailwind",
      "do not use Tailwind",
      "never use tailwind",
      "avoid tailwind",
      "without tailwind",
      "stop using tailwind",
      "Tailwind is banned",
      "不要Tailwind",
      "不用Tailwind",
      "别用Tailwind",
      "禁止使用Tailwind",
      "避免Tailwind",
      "不使用Tailwind",
      "弃用Tailwind",
      "放弃Tailwind",
      "Tailwind 禁用",
    ];
    for (const text of texts) {
      expect([text, run([text]).symbolic.theme_system]).toEqual([
        text,
        { preferred: [], rejected: ["Tailwind"], sources: 1 },
      ]);
    }
  });

  test("X instead of / rather than Y: X preferred, Y rejected", () => {
    const expected = {
      theme_system: {
        strategy: "css_variables",
        preferred: ["css variables"],
        rejected: ["Tailwind"],
        sources: 1,
      },
    };
    for (const text of [
      "use css variables instead of tailwind",
      "css variables rather than Tailwind",
      "CSS variables instead of using Tailwind",
      "no tailwind, css variables only",
      "avoid tailwind and use css variables",
      "replace Tailwind with CSS variables",
      "switch from Tailwind to CSS variables",
      "把Tailwind换成CSS变量",
      "使用CSS变量而不是Tailwind",
    ]) {
      expect([text, run([text]).symbolic]).toEqual([text, expected]);
    }
  });

  test("a negation carries over a comma list", () => {
    expect(run(["no tailwind, bootstrap, or material ui"]).symbolic).toEqual({
      theme_system: { preferred: [], rejected: ["Tailwind"], sources: 1 },
      ui_framework: { preferred: [], rejected: ["Bootstrap", "Material UI"], sources: 1 },
    });
  });

  test("an ambiguous bare item after a negation is not guessed", () => {
    const r = run(["no tailwind, css variables"]);
    expect(r.symbolic).toEqual({});
    expect(r.constraints).toEqual(["no tailwind, css variables"]);
  });
});

describe("lossless folding", () => {
  test("a constraint that says more than its entry could hold stays verbatim", () => {
    const texts = [
      "Never use Tailwind in the admin panel",
      "禁止在用户界面使用Tailwind",
      "Never store tokens in localStorage",
    ];
    const r = run(texts);
    expect(r.constraints).toEqual(texts);
    expect(r.symbolic).toEqual({});
  });

  test("a single foldable constraint is folded (one rule, applied consistently)", () => {
    const r = run(["use PostgreSQL"]);
    expect(r.constraints).toEqual([]);
    expect(r.symbolic).toEqual({
      db_type: { strategy: "postgresql", preferred: ["PostgreSQL"], rejected: [], sources: 1 },
    });
  });
});

describe("contradictions", () => {
  test("'no tailwind' and 'use tailwind' are flagged and kept, not merged", () => {
    expect(run(["no tailwind", "use tailwind", "avoid utility css"])).toEqual({
      constraints: ["no tailwind", "use tailwind"],
      symbolic: { theme_system: { preferred: [], rejected: ["utility-first"], sources: 1 } },
      conflicts: [
        {
          category: "theme_system",
          subject: "Tailwind",
          rejected_by: "no tailwind",
          preferred_by: "use tailwind",
        },
      ],
      dropped_duplicates: 0,
      overflow: [],
    });
  });

  test("across languages, through canonical labels", () => {
    const r = run(["Use Tailwind", "不要用Tailwind"]);
    expect(r.conflicts).toEqual([
      {
        category: "theme_system",
        subject: "Tailwind",
        rejected_by: "不要用Tailwind",
        preferred_by: "Use Tailwind",
      },
    ]);
    expect(r.constraints).toEqual(["Use Tailwind", "不要用Tailwind"]);
    expect(r.symbolic).toEqual({});
  });

  test("a conflicting text is not folded into its other categories either", () => {
    const r = run(["use JWT instead of sessions", "use sessions"]);
    expect(r.conflicts).toHaveLength(1);
    expect(r.conflicts[0].subject).toBe("session");
    expect(r.constraints).toEqual(["use JWT instead of sessions", "use sessions"]);
    expect(r.symbolic).toEqual({});
  });

  test("one text that says a subject both ways stays whole and verbatim, and is not a conflict", () => {
    const scoped = run(["Use Tailwind for the admin, no Tailwind elsewhere"]);
    expect(scoped.conflicts).toEqual([]);
    expect(scoped.constraints).toEqual(["Use Tailwind for the admin, no Tailwind elsewhere"]);
    // Its other subjects are not folded either: that would keep half of the sentence.
    const r = run(["Use Tailwind and CSS variables, no Tailwind"]);
    expect(r).toMatchObject({
      constraints: ["Use Tailwind and CSS variables, no Tailwind"],
      symbolic: {},
      conflicts: [],
    });
  });
});

describe("duplicates and empties", () => {
  test("case-, whitespace-, trim- and trailing-punctuation-insensitive duplicates are dropped and counted", () => {
    const r = run(["No Tailwind", "no  tailwind", " NO TAILWIND ", "No Tailwind.", "", "   "]);
    expect(r.dropped_duplicates).toBe(3);
    expect(r.symbolic.theme_system.sources).toBe(1);
  });

  test("an unmatched duplicate is kept once, in its first form", () => {
    const r = run(["  Keep commits small ", "keep commits SMALL", "Run tests before pushing"]);
    expect(r.constraints).toEqual(["Keep commits small", "Run tests before pushing"]);
    expect(r.dropped_duplicates).toBe(1);
  });

  test("non-strings are refused", () => {
    expect(() => new ConstraintCompressor().addConstraint(42 as unknown as string)).toThrow(TypeError);
  });
});

describe("maxConstraints and overflow", () => {
  const unmatched = ["one", "two", "three", "four"].map((n) => `keep file ${n} untouched`);

  test("overflow beyond maxConstraints is returned, not dropped", () => {
    const r = run([unmatched[0], "no tailwind", ...unmatched.slice(1)], 2);
    expect(r.constraints).toEqual(unmatched.slice(0, 2));
    expect(r.overflow).toEqual(unmatched.slice(2));
    expect(r.symbolic.theme_system.rejected).toEqual(["Tailwind"]);
  });

  test("default limit is 20", () => {
    const many = Array.from({ length: 25 }, (_, i) => `rule number ${i}`);
    const r = run(many);
    expect(r.constraints).toEqual(many.slice(0, 20));
    expect(r.overflow).toEqual(many.slice(20));
  });

  test("zero keeps nothing inline; invalid limits are refused", () => {
    expect(run(unmatched, 0)).toMatchObject({ constraints: [], overflow: unmatched });
    expect(() => new ConstraintCompressor(-1)).toThrow(RangeError);
    expect(() => new ConstraintCompressor(2.5)).toThrow(RangeError);
    expect(() => new ConstraintCompressor(Number.NaN)).toThrow(RangeError);
  });
});

describe("reasons", () => {
  test("dash, 'because' and 因为 reasons are kept", () => {
    expect(run(["no tailwind — causes style conflict"]).symbolic.theme_system.reason).toBe(
      "causes style conflict",
    );
    expect(run(["no tailwind - causes style conflict"]).symbolic.theme_system.reason).toBe(
      "causes style conflict",
    );
    expect(run(["No Tailwind because it bloats the markup."]).symbolic.theme_system.reason).toBe(
      "it bloats the markup",
    );
    expect(run(["不要用Tailwind,因为会造成样式冲突"]).symbolic.theme_system).toEqual({
      preferred: [],
      rejected: ["Tailwind"],
      reason: "会造成样式冲突",
      sources: 1,
    });
  });

  test("keywords inside the reason are not subjects", () => {
    expect(run(["use css variables because Tailwind bloats the bundle"]).symbolic).toEqual({
      theme_system: {
        strategy: "css_variables",
        preferred: ["css variables"],
        rejected: [],
        reason: "Tailwind bloats the bundle",
        sources: 1,
      },
    });
  });

  test("several reasons in one entry say which subject each is about", () => {
    const r = run([
      "no tailwind — conflicts with our tokens",
      "avoid utility css because of markup bloat",
      "use css variables",
    ]);
    expect(r.symbolic.theme_system.reason).toBe(
      "Tailwind: conflicts with our tokens; utility-first: markup bloat",
    );
  });

  test("no reason, no reason field", () => {
    expect("reason" in run(["no tailwind"]).symbolic.theme_system).toBe(false);
  });
});

describe("compressLayer2", () => {
  test("spec SDK example: constraints compress, decisions and excluded paths pass through", () => {
    expect(
      compressLayer2(["No Tailwind CSS", "Use JWT"], ["REST API first"], ["localStorage for tokens"]),
    ).toEqual({
      constraints: [],
      symbolic: {
        theme_system: { preferred: [], rejected: ["Tailwind"], sources: 1 },
        auth_strategy: { strategy: "jwt", preferred: ["JWT"], rejected: [], sources: 1 },
      },
      conflicts: [],
      dropped_duplicates: 0,
      overflow: [],
      decisions: ["REST API first"],
      excluded_paths: ["localStorage for tokens"],
    });
  });

  test("decisions and excluded paths are deduplicated in order; omitted ones are empty", () => {
    const r = compressLayer2(["no tailwind"], ["B first", "A second", " b FIRST ", ""], ["x", "y", "X"]);
    expect(r.decisions).toEqual(["B first", "A second"]);
    expect(r.excluded_paths).toEqual(["x", "y"]);
    expect(r.dropped_duplicates).toBe(0);
    const bare = compressLayer2(["no tailwind"]);
    expect(bare.decisions).toEqual([]);
    expect(bare.excluded_paths).toEqual([]);
  });

  test("maxConstraints option reaches the compressor", () => {
    const r = compressLayer2(["keep a", "keep b", "keep c"], [], [], { maxConstraints: 1 });
    expect(r.constraints).toEqual(["keep a"]);
    expect(r.overflow).toEqual(["keep b", "keep c"]);
  });
});

describe("determinism", () => {
  const input = [
    "prefer REST over GraphQL",
    "keep files small",
    "no tailwind",
    "Use JWT for auth",
    "use tailwind",
    "不要用MongoDB，使用关系型数据库",
    "avoid utility css because bloat",
    "no tailwind",
  ];

  test("same input → identical output, including key order", () => {
    const a = JSON.stringify(run(input));
    expect(JSON.stringify(run(input))).toBe(a);
    const c = new ConstraintCompressor().addConstraints(input);
    expect(JSON.stringify(c.compress())).toBe(a);
    expect(JSON.stringify(c.compress())).toBe(a); // compress() does not consume the input
  });

  test("symbolic keys follow the rule table, not input order", () => {
    const keys = Object.keys(run(["use GraphQL", "no bootstrap", "use JWT", "no tailwind"]).symbolic);
    expect(keys).toEqual(["theme_system", "ui_framework", "auth_strategy", "api_style"]);
    const entry = run(["use GraphQL"]).symbolic.api_style;
    expect(Object.keys(entry)).toEqual(["strategy", "preferred", "rejected", "sources"]);
  });

  test("constraints added after compress() accumulate", () => {
    const c = new ConstraintCompressor().addConstraint("no tailwind");
    expect(c.compress().symbolic.theme_system.sources).toBe(1);
    c.addConstraints(new Set(["avoid utility css"]));
    expect(c.compress().symbolic.theme_system).toEqual({
      preferred: [],
      rejected: ["Tailwind", "utility-first"],
      sources: 2,
    });
  });
});

describe("COMPRESSION_RULES", () => {
  test("the categories from the original, api_style merged into one", () => {
    expect(COMPRESSION_RULES.map((r) => r.category)).toEqual([
      "theme_system",
      "ui_framework",
      "auth_strategy",
      "session_management",
      "db_access",
      "db_type",
      "api_style",
    ]);
  });

  test("every rule has English and Chinese keywords; no term belongs to two rules", () => {
    const cjk = /[\u3400-\u9fff]/;
    const seen = new Map<string, string>();
    for (const rule of COMPRESSION_RULES) {
      expect([rule.category, rule.keywords.some((k) => cjk.test(k.term))]).toEqual([rule.category, true]);
      expect([rule.category, rule.keywords.some((k) => !cjk.test(k.term))]).toEqual([rule.category, true]);
      for (const k of rule.keywords) {
        expect([k.term, seen.get(k.term) ?? rule.category]).toEqual([k.term, rule.category]);
        seen.set(k.term, rule.category);
      }
    }
  });

  test("the table is frozen data", () => {
    expect(Object.isFrozen(COMPRESSION_RULES)).toBe(true);
    expect(Object.isFrozen(COMPRESSION_RULES[0].keywords[0])).toBe(true);
    expect(() => (COMPRESSION_RULES as unknown as unknown[]).push({})).toThrow();
  });
});
