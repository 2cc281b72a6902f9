// Passwords made of words are secrets: a value after a password-like name is redacted whatever its
// entropy, in every form the issue lists (environment, JSON/YAML keys, URL user-info, command
// lines, .netrc, cookies); placeholders that look like a secret are treated as one. Measured on the
// published test cases of two maintained secret scanners (test/fixtures/secret-scanners/README.md:
// origin, commit, licence) and on the prose corpus; then through the real CLI: save, load, recall,
// the store's bytes, `scan` and `scan --fix`.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { redact } from "../src/engine/snapshots/redact.ts";
import { projectOnLaptop, sql } from "./helpers.ts";

interface Case {
  source: string;
  file: string;
  set: "tp" | "fp";
  text: string;
  secrets?: string[];
  note?: string;
}
const CASES: Case[] = JSON.parse(
  Buffer.from(
    readFileSync(join(import.meta.dir, "fixtures", "secret-scanners", "cases.json.b64"), "utf8"),
    "base64",
  ).toString("utf8"),
);

describe("the published test cases of gitleaks and detect-secrets", () => {
  const tps = CASES.filter((c) => c.set === "tp");
  const fps = CASES.filter((c) => c.set === "fp");

  test("the corpus: 150+ true positives from both scanners, 100+ false positives", () => {
    expect(tps.length).toBeGreaterThanOrEqual(150);
    expect(fps.length).toBeGreaterThanOrEqual(100);
    for (const source of ["gitleaks", "detect-secrets"])
      expect(tps.filter((c) => c.source === source).length).toBeGreaterThanOrEqual(50);
  });

  test("0 true secrets kept: no secret of a true positive is left in its redacted text", () => {
    const kept = tps.filter((c) => c.secrets!.some((s) => redact(c.text).includes(s))).map((c) => c.text);
    expect(kept).toEqual([]);
  });

  test("false positives: only two token-shaped values change (≤2%), each a token gitleaks lets go by special knowledge", () => {
    const changed = fps.filter((c) => redact(c.text) !== c.text).map((c) => redact(c.text));
    // A JWT sent under the Basic scheme (gitleaks wants base64 of user:password there), and one
    // public hash gitleaks allows by its exact value (yarnpkg/berry#6201).
    expect(changed).toEqual([
      expect.stringContaining('-H "Authorization: Basic [REDACTED:jwt]"'),
      ',apiKey:"[REDACTED:generic-api-key]",',
    ]);
    expect(changed.length / fps.length).toBeLessThanOrEqual(0.02);
  });
});

describe("a value after a password-like name is redacted whatever its entropy", () => {
  const P = "[REDACTED:password]";
  const G = "[REDACTED:generic-api-key]";
  const FORMS: [string, string][] = [
    // Environment assignments.
    ["DB_PASSWORD=correcthorsebattery", `DB_PASSWORD=${P}`],
    ["PASSWORD=changeme", `PASSWORD=${P}`],
    ["  POSTGRES_PASSWORD: changeme", `  POSTGRES_PASSWORD: ${P}`],
    [
      "docker run -e MYSQL_ROOT_PASSWORD=trombone -d mysql:8",
      `docker run -e MYSQL_ROOT_PASSWORD=${P} -d mysql:8`,
    ],
    ["export DB_PASS=hunter", `export DB_PASS=${P}`],
    // JSON and YAML keys, any case, with prefixes.
    ['{"password": "letmein"}', `{"password": "${P}"}`],
    ['{"Passwd": "dragonfly", "user": "ops"}', `{"Passwd": "${P}", "user": "ops"}`],
    ["pwd: sunshine", `pwd: ${P}`],
    ["db:\n  adminPassword: tangerine\n  port: 5432", `db:\n  adminPassword: ${P}\n  port: 5432`],
    ['{"client_secret": "bluefalcon"}', `{"client_secret": "${G}"}`],
    ["api_key: orchard", `api_key: ${G}`],
    ['{"token": "pebble"}', `{"token": "${G}"}`],
    ["SLACK_TOKEN=walrus", `SLACK_TOKEN=${G}`],
    ['password = "correct horse battery staple"', `password = "${P}"`],
    // URL user-info, an empty user too.
    [
      "postgres://app:swordfish@db.internal:5432/shop",
      "postgres://app:[REDACTED:url-credentials]@db.internal:5432/shop",
    ],
    ["redis://:swordfish@cache:6379/0", "redis://:[REDACTED:url-credentials]@cache:6379/0"],
    // Command lines.
    ["mysql -u root -pquietgiraffe shop", `mysql -u root -p${P} shop`],
    ["sshpass -p quietgiraffe ssh deploy@web1", `sshpass -p ${P} ssh deploy@web1`],
    ["redis-cli -h cache -a quietgiraffe ping", `redis-cli -h cache -a ${P} ping`],
    ["psql --password quietgiraffe", `psql --password ${P}`],
    ["./migrate --db-password=quietgiraffe", `./migrate --db-password=${P}`],
    // .netrc, on one line or several.
    [
      "machine api.example.com login bob password velvetotter",
      `machine api.example.com login bob password ${P}`,
    ],
    [
      "machine git.example.com\n  login deploy\n  password velvetotter\n",
      `machine git.example.com\n  login deploy\n  password ${P}\n`,
    ],
    // Cookies: a session's value whatever it is; the attributes of Set-Cookie stay.
    [
      "Cookie: theme=dark; sessionid=pancake; lang=en",
      "Cookie: theme=dark; sessionid=[REDACTED:cookie]; lang=en",
    ],
    ["Set-Cookie: sid=pancake; Path=/; HttpOnly", "Set-Cookie: sid=[REDACTED:cookie]; Path=/; HttpOnly"],
    ['curl -H "Cookie: auth=Xk29dLqPz81mNw"', 'curl -H "Cookie: auth=[REDACTED:cookie]"'],
  ];

  test.each(FORMS)("%p", (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  test("a placeholder that looks like a secret is treated as one: ghp_ + 36 × a, changeme", () => {
    const ghp = "gh" + "p_" + "a".repeat(36);
    expect(redact(`GITHUB_TOKEN=${ghp}`)).toBe("GITHUB_TOKEN=[REDACTED:github-pat]");
    expect(redact(`push with ${ghp} then`)).toBe("push with [REDACTED:github-pat] then");
    expect(redact("PASSWORD=changeme")).toBe(`PASSWORD=${P}`);
    expect(redact("curl -u elastic:changeme http://localhost:9200")).toBe(
      "curl -u elastic:[REDACTED:curl-auth-user] http://localhost:9200",
    );
  });

  // Over-redaction is a defect too: each of these is prose, code or a reference, not a value.
  const STAYS = [
    "token: the next page",
    "the password field is required",
    "pwd",
    "cd .. && pwd",
    "--password-file /run/secrets/db",
    "docker login --password-stdin",
    "password: required",
    "password: string",
    "  password: str",
    "token: expired",
    "const password = args.password",
    "login(user, password=password)",
    "password = user_password",
    "DB_PASSWORD=${DB_PASSWORD}",
    "password: <your password>",
    "API_KEY=your-api-key-here",
    "client_secret: REPLACE_ME",
    "password_file: /etc/pw",
    "TOKEN_URL=https://auth.example.com/token",
    "SECRET_NAME=prod-db",
    "Set-Cookie: theme=dark; Path=/",
    "the cookie: chocolate",
    "Run with --password to be prompted.",
    "DB_PASSWORD: see the vault",
    "password: ********",
    'if (token == "eof")',
    'error = "Password is too short."',
    "pass: 12",
    "mysql -u root -p shop",
    "DB_PASSWORD=$(cat /run/secrets/db)",
    'secret = get_secret("db")',
    "machine example.com login bob",
    '{"auth": "basic"}',
    '{"pass": "green", "fail": 0}',
    "password = other_password",
    "password = fix",
    "another passphrase: `MINDSAVE_PEER_PASSPHRASE`",
    "`mysql -p…`",
    "const withinTokenLimit = isWithinTokenLimit(text, tokenLimit)",
    "token_limit = 409600",
  ];
  test.each(STAYS)("stays: %p", (text) => {
    expect(redact(text)).toBe(text);
  });

  test("any script: a word password in Chinese is redacted, the note around it stays", () => {
    expect(redact("DB_PASSWORD=长城八达岭")).toBe(`DB_PASSWORD=${P}`);
    expect(redact('{"密码说明": "见保险库", "password": "长城八达岭"}')).toBe(
      `{"密码说明": "见保险库", "password": "${P}"}`,
    );
  });
});

// Word passwords saved through the CLI, and the same planted raw as an older version stored them.
const WORDS = [
  "correcthorsebattery",
  "trombonepancake",
  "quietgiraffe",
  "velvetotter",
  "amberfalcon",
  "silverwalrus",
];

/** "word in file" for each word password found in the raw bytes of a home's files (backups aside). */
function leaks(home: string, words = WORDS): string[] {
  const out: string[] = [];
  for (const name of readdirSync(home)) {
    if (/\.bak-/.test(name) || !name.startsWith("mindsave.db")) continue;
    const bytes = readFileSync(join(home, name));
    for (const w of words) if (bytes.includes(w)) out.push(`${w} in ${basename(name)}`);
  }
  return out;
}

describe("through the CLI", () => {
  test("save: no word password reaches load, recall or the store's bytes; the YAML warning echoes no secret key", async () => {
    const s = projectOnLaptop("mindsave-word-passwords-");
    const yaml = [
      "---",
      "goal: Move the shop database",
      "state: DB_PASSWORD=correcthorsebattery set on staging",
      "next_action: run mysql -u root -ptrombonepancake shop < dump.sql",
      "constraints:",
      "  - 'POSTGRES_PASSWORD: quietgiraffe'",
      "deploy_notes: machine db.internal login ops password velvetotter",
      "redis://:amberfalcon@cache:6379: the cache",
      "SLACK_TOKEN=silverwalrus: 1",
      "---",
      "Cookie: sessionid=silverwalrus",
      "",
    ].join("\n");
    const saved = await s.cli(["save"], { stdin: yaml });
    expect(saved.code).toBe(0);
    // The unknown fields are named in a warning: the keys that hold secrets are shown redacted.
    expect(saved.stderr).toContain("Kept fields the spec does not define");
    expect(saved.stderr).toContain("deploy_notes");
    for (const w of WORDS) expect(saved.stdout + saved.stderr).not.toContain(w);
    const loaded = await s.json(["load", "--json"]);
    expect(loaded.layer1.state).toBe("DB_PASSWORD=[REDACTED:password] set on staging");
    expect(loaded.layer1.next_action).toBe("run mysql -u root -p[REDACTED:password] shop < dump.sql");
    const all = JSON.stringify(loaded) + JSON.stringify(await s.json(["recall", "shop"]));
    for (const w of WORDS) expect(all).not.toContain(w);
    for (const w of WORDS) expect((await s.json(["recall", w])).hits).toEqual([]);
    expect(leaks(s.home)).toEqual([]);
  });

  test("scan finds word passwords an earlier version stored; scan --fix removes them from every store file", async () => {
    const s = projectOnLaptop("mindsave-word-passwords-");
    await s.okCli(["save", "--goal", "Move the shop database", "--failed", "pg_dump over ssh: too slow"]);
    await sql(s.db, "UPDATE snapshots SET state = ?, layer3 = ?", [
      "DB_PASSWORD=correcthorsebattery",
      "mysql -u root -ptrombonepancake shop\nmachine db login ops password velvetotter",
    ]);
    await sql(s.db, "UPDATE failures SET reason = ?", [
      "redis://:amberfalcon@cache:6379 refused; POSTGRES_PASSWORD: quietgiraffe",
    ]);
    expect(leaks(s.home).length).toBeGreaterThanOrEqual(5); // planted for real
    const found = await s.cli(["scan", "--json"]);
    expect(found.code).toBe(1);
    for (const w of WORDS) expect(found.stdout + found.stderr).not.toContain(w);
    const findings = JSON.parse(found.stdout).findings as { table: string; field: string; kind: string }[];
    expect(findings.map((f) => `${f.table}.${f.field}:${f.kind}`).sort()).toEqual([
      "failures.reason:password",
      "failures.reason:url-credentials",
      "snapshots.layer3:password",
      "snapshots.layer3:password",
      "snapshots.state:password",
    ]);
    const fix = await s.cli(["scan", "--fix", "--json"]);
    expect(fix.code).toBe(0);
    expect(leaks(s.home)).toEqual([]);
    expect(await s.cli(["scan"])).toMatchObject({ code: 0 });
    expect((await s.json(["load", "--json"])).layer1.state).toBe("DB_PASSWORD=[REDACTED:password]");
  });
});

// A password's name in other languages (issue 32): the value after it, in Latin letters, digits
// and symbols, is a secret; CJK prose about a password stays.
describe("a password's name in another language", () => {
  const P = "[REDACTED:password]";
  const FORMS: [string, string][] = [
    ["密码: correcthorsebattery", `密码: ${P}`],
    ["密码：correcthorsebattery", `密码：${P}`],
    ["DB密码: correcthorsebattery", `DB密码: ${P}`],
    ["数据库密码是 correcthorsebattery", `数据库密码是 ${P}`],
    ["数据库密码是abcd1234请保管", `数据库密码是${P}请保管`],
    ["密码是：hunter22，请保管", `密码是：${P}，请保管`],
    ["数据库密码是 correcthorsebattery，见运维", `数据库密码是 ${P}，见运维`],
    ["密码为abcd", `密码为${P}`],
    ["密碼為 hunter22", `密碼為 ${P}`],
    ["口令=abcd", `口令=${P}`],
    ['{"密码": "correcthorsebattery"}', `{"密码": "${P}"}`],
    ["パスワード：correcthorsebattery", `パスワード：${P}`],
    ["パスワードは「letmein」です", `パスワードは「${P}」です`],
    ["Passwort: correcthorsebattery", `Passwort: ${P}`],
    ["Root-Kennwort: changeme", `Root-Kennwort: ${P}`],
    ["mot de passe : swordfish", `mot de passe : ${P}`],
    ["contraseña: swordfish", `contraseña: ${P}`],
    ["senha=swordfish", `senha=${P}`],
    ["пароль: swordfish", `пароль: ${P}`],
  ];
  test.each(FORMS)("%p", (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  // A description in the sentence's own script, a placeholder, a type, or a word inside a sentence.
  const STAYS = [
    "密码：必须至少8位",
    "密码是必填项",
    "忘记密码了",
    "密码错误",
    "the 密码 field",
    "密码是否正确",
    "密码为空",
    "密码：8位",
    "密码：请向管理员索取，不要写在代码里",
    "密码：bcrypt加密",
    "密码: stored in the vault",
    "密码: required",
    "密码=${DB_PASSWORD}",
    "密码: <your password>",
    "密码：xxxx",
    "密码：123",
    "Passwort: muss mindestens 8 Zeichen haben",
    "пароль: секрет",
    "Mise à jour du mot de passe : voir le coffre-fort",
    "パスワード欄を修正：コミット 5cdce7c",
  ];
  test.each(STAYS)("stays: %p", (text) => {
    expect(redact(text)).toBe(text);
  });
});

describe("a password named in another language, through the CLI", () => {
  const SECRETS = [
    "correcthorsebattery",
    "trombonepancake",
    "quietgiraffe",
    "velvetotter",
    "amberfalcon",
    "silverwalrus",
  ];
  const STATES = [
    "密码: correcthorsebattery",
    "密码：trombonepancake",
    "DB密码: quietgiraffe",
    "数据库密码是 velvetotter",
    "パスワード：amberfalcon",
    "Passwort: silverwalrus",
  ];

  test("save: none reaches load or the store's bytes", async () => {
    const s = projectOnLaptop("mindsave-word-passwords-");
    expect(
      (await s.cli(["save", "--goal", "Move the shop database", "--state", STATES.join("\n")])).code,
    ).toBe(0);
    const shown = JSON.stringify(await s.json(["load", "--json"]));
    expect(shown).toContain("数据库密码是 [REDACTED:password]");
    for (const w of SECRETS) expect(shown).not.toContain(w);
    expect(leaks(s.home, SECRETS)).toEqual([]);
  });

  test("scan finds one an earlier version stored raw; scan --fix removes it", async () => {
    const s = projectOnLaptop("mindsave-word-passwords-");
    await s.okCli(["save", "--goal", "Move the shop database"]);
    await sql(s.db, "UPDATE snapshots SET state = ?", ["数据库密码是 correcthorsebattery，见运维"]);
    expect(leaks(s.home, SECRETS)).not.toEqual([]); // planted for real
    const found = await s.cli(["scan", "--json"]);
    expect(found.code).toBe(1);
    expect(found.stdout + found.stderr).not.toContain("correcthorsebattery");
    expect(
      (JSON.parse(found.stdout).findings as { table: string; field: string; kind: string }[]).map(
        (f) => `${f.table}.${f.field}:${f.kind}`,
      ),
    ).toEqual(["snapshots.state:password"]);
    expect((await s.cli(["scan", "--fix", "--json"])).code).toBe(0);
    expect(leaks(s.home, SECRETS)).toEqual([]);
    expect((await s.json(["load", "--json"])).layer1.state).toBe("数据库密码是 [REDACTED:password]，见运维");
  });
});
