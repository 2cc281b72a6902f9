// Redaction: a corpus of generated fake secrets (every one replaced by its kind, nothing else
// touched), a corpus of ordinary prose (byte-identical), object keys, speed, and the real CLI.
// The fake secrets are built by concatenation from a seeded PRNG so this file holds no token a
// secret scanner would flag, and the run is the same every time.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { redact, redactDeep } from "../src/engine/snapshots/redact.ts";
import { SECRET_RULES } from "../src/engine/snapshots/secret-rules.ts";
import { laptop, okJson, tempDir } from "./helpers.ts";

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = prng(0x5ec12e7);
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const B64 = ALNUM + "+/";
const URLSAFE = ALNUM + "_-";
const pick = <T,>(xs: readonly T[] | string): T => xs[Math.floor(rand() * xs.length)] as T;
const chars = (alphabet: string, n: number): string => Array.from({ length: n }, () => pick<string>(alphabet)).join("");
/** Random characters with at least one digit, one upper and one lower case letter among them. */
const mixed = (alphabet: string, n: number): string => pick<string>(UPPER) + pick<string>(DIGITS) + pick<string>(LOWER) + chars(alphabet, n - 3);
const between = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const password = (): string => pick<string>(LOWER + UPPER) + mixed(ALNUM, between(7, 14)) + pick<string>("!@#%^*+=?~") + chars(ALNUM, 2);

interface Fake {
  kind: string;
  secret: string;
  /** Sentences holding the secret where `{s}` stands; none means the shared ones. */
  lines?: string[];
}

/** Sentences for tokens that name themselves by their format. */
const ANYWHERE = [
  "Found {s} in the CI log, revoked it within the hour.",
  "export SERVICE_CREDENTIAL={s}",
  '{"credentials": {"value": "{s}", "scope": "read"}}',
  "The reviewer pointed out that {s} is hard-coded in src/config.ts:42.",
  'curl -H "X-Api-Key: {s}" https://api.example.com/v1/items',
  "Use {s}; then delete it from .env (done).",
  "TODO(jane): move {s} into the vault",
  "{s}",
  "deploy:\n  env:\n    UPSTREAM: '{s}'\n  steps: 3",
  "value=({s}) was printed by the debug logger",
];

const SK = "s" + "k";
const fakes: (() => Fake)[] = [
  () => ({ kind: "aws-access-key", secret: pick(["AKIA", "ASIA"]) + chars(UPPER + "234567", 16) }),
  () => ({
    kind: "aws-secret-access-key", secret: mixed(ALNUM + "/+", 40),
    lines: ["aws_secret_access_key = {s}", "export AWS_SECRET_ACCESS_KEY={s}", '{"AccessKeyId": "ASIA…", "SecretAccessKey": "{s}"}'],
  }),
  () => ({ kind: "github-pat", secret: "gh" + "p_" + mixed(ALNUM, 36) }),
  () => ({ kind: "github-oauth", secret: "gh" + "o_" + mixed(ALNUM, 36) }),
  () => ({ kind: "github-app-token", secret: pick(["ghu", "ghs"]) + "_" + mixed(ALNUM, 36) }),
  () => ({ kind: "github-refresh-token", secret: "gh" + "r_" + mixed(ALNUM, 36) }),
  () => ({ kind: "github-fine-grained-pat", secret: "github" + "_pat_" + mixed(ALNUM, 22) + "_" + mixed(ALNUM, 59) }),
  () => ({ kind: "gitlab-pat", secret: "gl" + "pat-" + mixed(URLSAFE, 20) }),
  () => ({ kind: "slack-bot-token", secret: "xo" + "xb-" + chars(DIGITS, 11) + "-" + chars(DIGITS, 12) + "-" + mixed(ALNUM, 24) }),
  () => ({ kind: "slack-user-token", secret: "xo" + "xp-" + chars(DIGITS, 11) + "-" + chars(DIGITS, 11) + "-" + chars(DIGITS, 12) + "-" + chars(HEX, 32) }),
  () => ({
    kind: "slack-webhook-url", secret: "T" + chars(UPPER + DIGITS, 8) + "/B" + chars(UPPER + DIGITS, 8) + "/" + mixed(ALNUM, 24),
    lines: ["SLACK_WEBHOOK=https://hooks.slack.com/services/{s}", "Alerts post to https://hooks.slack.com/services/{s} (channel #ops)."],
  }),
  () => ({ kind: "stripe-access-token", secret: pick(["sk_live_", "rk_live_", "sk_test_"]).replace("sk", SK) + mixed(ALNUM, between(24, 99)) }),
  () => ({ kind: "openai-api-key", secret: SK + "-proj-" + mixed(URLSAFE, 74) + "T3Blbk" + "FJ" + mixed(URLSAFE, 74) }),
  () => ({ kind: "openai-api-key", secret: SK + "-" + mixed(ALNUM, 20) + "T3Blbk" + "FJ" + mixed(ALNUM, 20) }),
  () => ({ kind: "anthropic-api-key", secret: SK + "-ant-api03-" + mixed(URLSAFE, 93) + "AA" }),
  () => ({ kind: "gcp-api-key", secret: "AI" + "za" + mixed(URLSAFE, 35) }),
  () => {
    const body = Array.from({ length: between(4, 12) }, () => chars(B64, 64)).join("\n");
    const label = pick(["RSA ", "EC ", "OPENSSH ", ""]);
    const secret = "-----BEGIN " + label + "PRIVATE" + " KEY-----\n" + body + "\n-----END " + label + "PRIVATE" + " KEY-----";
    return { kind: "private-key", secret, lines: ["id_rsa:\n{s}\n(do not commit)", "The key was pasted into the ticket:\n\n{s}\n\nPlease rotate it."] };
  },
  () => ({ kind: "private-key", secret: "-----BEGIN " + "PRIVATE" + " KEY-----\\n" + chars(B64, 64) + "\\n" + chars(B64, 40) + "\\n-----END " + "PRIVATE" + " KEY-----", lines: ['{"type": "service_account", "private_key": "{s}\\n", "client_email": "ci@example.iam"}'] }),
  () => ({ kind: "jwt", secret: "ey" + "J" + mixed(ALNUM, 30) + ".ey" + "J" + mixed(ALNUM, 60) + "." + mixed(URLSAFE, 43) }),
  () => ({ kind: "npm-access-token", secret: "np" + "m_" + mixed(ALNUM, 36), lines: ["//registry.npmjs.org/:_authToken={s}", ...ANYWHERE.slice(0, 4)] }),
  () => ({ kind: "pypi-upload-token", secret: "py" + "pi-AgEIcHlwaS5vcmc" + mixed(URLSAFE, between(60, 140)) }),
  () => ({ kind: "sendgrid-api-token", secret: "S" + "G." + mixed(URLSAFE, 22) + "." + mixed(URLSAFE, 43) }),
  () => ({ kind: "twilio-api-key", secret: "S" + "K" + chars(HEX, 32) }),
  () => ({ kind: "huggingface-access-token", secret: "h" + "f_" + mixed(UPPER + LOWER, 34).replace(/\d/g, "q") }),
  () => ({ kind: "digitalocean-pat", secret: "dop" + "_v1_" + chars(HEX, 64) }),
  () => ({ kind: "shopify-access-token", secret: "shp" + "at_" + chars(HEX, 32) }),
  () => ({ kind: "databricks-api-token", secret: "da" + "pi" + chars(HEX, 32) }),
  () => ({ kind: "telegram-bot-api-token", secret: chars(DIGITS, 9) + ":A" + "A" + mixed(URLSAFE, 33), lines: ["TELEGRAM_BOT_TOKEN={s}", "bot = Bot(token='{s}')", ...ANYWHERE.slice(0, 3)] }),
  () => ({ kind: "mailgun-private-api-token", secret: "key-" + chars(HEX, 32), lines: ["MAILGUN_API_KEY={s}", 'mailgun.apiKey: "{s}"', "mailgun_key = {s} # prod"] }),
  () => ({
    kind: "azure-storage-account-key", secret: mixed(B64, 86) + "==",
    lines: ["AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=shopassets;AccountKey={s};EndpointSuffix=core.windows.net"],
  }),
  () => ({ kind: "age-secret-key", secret: "AGE-SECRET" + "-KEY-1" + chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58) }),
  () => ({ kind: "linear-api-key", secret: "lin" + "_api_" + mixed(ALNUM, 40) }),
  () => ({ kind: "vault-service-token", secret: "hv" + "s." + mixed(URLSAFE, 95) }),
  () => ({
    kind: "url-credentials", secret: mixed(ALNUM + "!*+=~_-", between(10, 24)),
    lines: ["DATABASE_URL=postgres://app:{s}@db.internal:5432/shop", "redis://default:{s}@cache.internal:6379/0 is the cache", "git clone https://deploy:{s}@git.example.com/acme/shop.git", "amqp://guest:{s}@rabbit:5672/ failed to connect"],
  }),
  () => ({
    kind: "bearer-token", secret: mixed(ALNUM + "-._~", between(24, 60)),
    lines: ['curl -H "Authorization: Bearer {s}" https://api.example.com/v1/orders', '{"headers": {"Authorization": "Bearer {s}"}}', "Authorization: Bearer {s}", "the proxy forwarded Bearer {s} to the upstream"],
  }),
  () => ({
    kind: "basic-auth", secret: btoa(chars(LOWER, 6) + ":" + password()),
    lines: ['curl -H "Authorization: Basic {s}" https://ci.example.com/api', "Authorization: Basic {s}"],
  }),
  () => ({ kind: "curl-auth-user", secret: password(), lines: ["curl -u admin:{s} https://registry.example.com/v2/", "curl --user deploy:{s} -X POST https://ci.example.com/job"] }),
  () => ({
    kind: "password", secret: password(),
    lines: ["DB_PASSWORD={s}", "password: {s}", '{"username": "deploy", "password": "{s}"}', "mysql --host db --password {s} shop", "  adminPassword: '{s}'", "PGPASSWORD={s} psql -U app shop", "./migrate --db-password={s} --dry-run", "the new passphrase = {s}."],
  }),
  () => ({
    kind: "generic-api-key", secret: mixed(ALNUM, between(24, 40)),
    lines: ["API_KEY={s}", '{"client_id": "shop-web", "client_secret": "{s}"}', "refresh_token={s}", "export SERVICE_SECRET={s}", 'apiKey: "{s}"', "deploy --api-key {s} --env prod", 'SECRET_KEY_BASE="{s}"', "x-access-token: {s}", "TOKEN={s}", '{"token": "{s}"}'],
  }),
];

/** Every fake secret in its sentence, with the text redaction must produce. */
const corpus = Array.from({ length: 12 * fakes.length }, (_, i) => {
  const fake = fakes[i % fakes.length]!();
  const line = pick(fake.lines ?? ANYWHERE);
  return { ...fake, text: line.replaceAll("{s}", fake.secret), expected: line.replaceAll("{s}", `[REDACTED:${fake.kind}]`) };
});

describe("secrets are replaced by their kind", () => {
  test("the corpus has 200+ secrets of 15+ kinds, and the rule set 20+ kinds", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(new Set(corpus.map((c) => c.kind)).size).toBeGreaterThanOrEqual(15);
    expect(new Set(SECRET_RULES.map((r) => r.kind ?? r.id)).size).toBeGreaterThanOrEqual(20);
  });

  test("every secret is replaced by [REDACTED:<kind>], its characters gone, the sentence around it intact", () => {
    const wrong = corpus.filter((c) => redact(c.text) !== c.expected).map((c) => ({ kind: c.kind, got: redact(c.text), expected: c.expected }));
    expect(wrong).toEqual([]);
    for (const c of corpus) expect(redact(c.text)).not.toContain(c.secret);
  });

  test("the examples of the issue", () => {
    expect(redact("password: hunter2!x")).toBe("password: [REDACTED:password]");
    expect(redact("DB_PASSWORD=s3cr3tP@ss")).toBe("DB_PASSWORD=[REDACTED:password]");
    expect(redact("auth: switch to JWT refresh")).toBe("auth: switch to JWT refresh");
    expect(redact("author: Jane reviewed; token: rotate on use")).toBe("author: Jane reviewed; token: rotate on use");
    expect(redact("password field")).toBe("password field");
  });

  test("redacting twice changes nothing more", () => {
    for (const c of corpus.slice(0, 60)) expect(redact(redact(c.text))).toBe(c.expected);
  });

  test("documented examples and placeholders stay", () => {
    for (const text of ["AKIAIOSFODNN7EXAMPLE", "password=${DB_PASSWORD}", "API_KEY=your-api-key-here", "token: {{ secrets.GITHUB_TOKEN }}", "csrf_token=abc123def456ghi", "const token = crypto.randomBytes(32)"]) {
      expect(redact(text)).toBe(text);
    }
  });
});

describe("prose is never touched", () => {
  const prose = readFileSync(join(import.meta.dir, "fixtures", "prose.txt"), "utf8");
  const lines = prose.split("\n").filter((l) => l !== "");

  test("500+ lines of engineering prose come back byte for byte", () => {
    expect(lines.length).toBeGreaterThanOrEqual(500);
    expect(lines.filter((l) => redact(l) !== l)).toEqual([]);
    expect(redact(prose)).toBe(prose);
  });

  test("1 MB of prose and secrets redacts in well under a second", () => {
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 1_000_000; i++) {
      const piece = i % 10 === 0 ? corpus[i % corpus.length]!.text : lines[i % lines.length]!;
      parts.push(piece);
      size += piece.length + 1;
    }
    const big = parts.join("\n");
    const start = performance.now();
    const out = redact(big);
    const ms = performance.now() - start;
    expect(ms).toBeLessThan(1000);
    expect(out).toContain("[REDACTED:github-pat]");
    expect(out.length).toBeLessThan(big.length);
  });

  test("pathological input stays fast (no catastrophic backtracking)", () => {
    const inputs = ["password=" + "a".repeat(200_000), "ey" + "A".repeat(200_000), "-----BEGIN PRIVATE KEY-----" + " x".repeat(100_000), "https://" + "u:".repeat(100_000), "Bearer ".repeat(50_000), "token = ".repeat(50_000) + "x"];
    for (const text of inputs) {
      const start = performance.now();
      redact(text);
      expect(performance.now() - start).toBeLessThan(1000);
    }
  });
});

describe("redactDeep", () => {
  test("redacts values at any depth and object keys, keeping keys that collide", () => {
    const a = corpus.find((c) => c.kind === "github-pat")!.secret;
    const b = fakes[2]!().secret;
    const input = { goal: "auth: switch to JWT refresh", list: [`token=${a}`, { deep: b }], [a]: "first", [b]: "second", "[REDACTED:github-pat]": "third", n: 3, ok: true, none: null };
    expect(redactDeep(input)).toEqual({
      goal: "auth: switch to JWT refresh",
      list: ["token=[REDACTED:github-pat]", { deep: "[REDACTED:github-pat]" }],
      "[REDACTED:github-pat] (2)": "first",
      "[REDACTED:github-pat] (3)": "second",
      "[REDACTED:github-pat]": "third",
      n: 3, ok: true, none: null,
    });
    expect(JSON.stringify(redactDeep(input))).not.toContain(a);
  });
});

describe("through the CLI", () => {
  test("save keeps ordinary prose byte for byte; the snapshot id says nothing of redaction", async () => {
    const base = tempDir();
    const pc = laptop("alpha", base);
    const home = join(base, "home");
    const workspace = join(base, "work");
    mkdirSync(home);
    mkdirSync(workspace);
    const opts = { cwd: base, env: pc.env };
    const goal = "auth: switch to JWT refresh";
    const state = "author: Jane reviewed; token: rotate on use";
    const saved = await okJson(["save", "--goal", goal, "--state", state, "--home", home, "--workspace", workspace], opts);
    const loaded = await okJson(["load", "--home", home, "--workspace", workspace], opts);
    expect(loaded.layer1.goal).toBe(goal);
    expect(loaded.layer1.state).toBe(state);
    expect(JSON.stringify(loaded)).not.toContain("REDACTED");
    expect(saved.saved).toBe(loaded.snapshot_id);
    expect(loaded.snapshot_id).toStartWith("auth_switch");
    expect(loaded.snapshot_id).not.toMatch(/redacted/i);
  });
});
