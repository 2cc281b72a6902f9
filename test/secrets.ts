// Fake secrets for tests: realistic tokens of many kinds, each in sentences of the kind where it
// appears in real work, built by concatenation from a seeded PRNG (so no file of the repository
// holds a token a secret scanner would flag, and every run is the same).
import { rng } from "../bench/gen.ts";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const B64 = ALNUM + "+/";
const URLSAFE = ALNUM + "_-";

export interface Fake {
  kind: string;
  secret: string;
  /** Sentences holding the secret where `{s}` stands; none means the shared ones. */
  lines?: string[];
}

/** Sentences for tokens that name themselves by their format. */
export const ANYWHERE = [
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

/**
 * The generators of one seeded stream: `fakes` (one generator a kind, some kinds twice), and the
 * random helpers they use (`pick` shares the stream, so the same calls give the same values).
 */
export function fakeSecrets(seed: number) {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[] | string): T => xs[Math.floor(rand() * xs.length)] as T;
  const chars = (alphabet: string, n: number): string =>
    Array.from({ length: n }, () => pick<string>(alphabet)).join("");
  /** Random characters with at least one digit, one upper and one lower case letter among them. */
  const mixed = (alphabet: string, n: number): string =>
    pick<string>(UPPER) + pick<string>(DIGITS) + pick<string>(LOWER) + chars(alphabet, n - 3);
  const between = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
  const password = (): string =>
    pick<string>(LOWER + UPPER) + mixed(ALNUM, between(7, 14)) + pick<string>("!@#%^*+=?~") + chars(ALNUM, 2);

  const fakes: (() => Fake)[] = [
    () => ({ kind: "aws-access-key", secret: pick(["AKIA", "ASIA"]) + chars(UPPER + "234567", 16) }),
    () => ({
      kind: "aws-secret-access-key",
      secret: mixed(ALNUM + "/+", 40),
      lines: [
        "aws_secret_access_key = {s}",
        "export AWS_SECRET_ACCESS_KEY={s}",
        '{"AccessKeyId": "ASIA…", "SecretAccessKey": "{s}"}',
      ],
    }),
    () => ({ kind: "github-pat", secret: "gh" + "p_" + mixed(ALNUM, 36) }),
    () => ({ kind: "github-oauth", secret: "gh" + "o_" + mixed(ALNUM, 36) }),
    () => ({ kind: "github-app-token", secret: pick(["ghu", "ghs"]) + "_" + mixed(ALNUM, 36) }),
    () => ({ kind: "github-refresh-token", secret: "gh" + "r_" + mixed(ALNUM, 36) }),
    () => ({
      kind: "github-fine-grained-pat",
      secret: "github" + "_pat_" + mixed(ALNUM, 22) + "_" + mixed(ALNUM, 59),
    }),
    () => ({ kind: "gitlab-pat", secret: "gl" + "pat-" + mixed(URLSAFE, 20) }),
    () => ({
      kind: "slack-bot-token",
      secret: "xo" + "xb-" + chars(DIGITS, 11) + "-" + chars(DIGITS, 12) + "-" + mixed(ALNUM, 24),
    }),
    () => ({
      kind: "slack-user-token",
      secret:
        "xo" +
        "xp-" +
        chars(DIGITS, 11) +
        "-" +
        chars(DIGITS, 11) +
        "-" +
        chars(DIGITS, 12) +
        "-" +
        chars(HEX, 32),
    }),
    () => ({
      kind: "slack-webhook-url",
      secret: "T" + chars(UPPER + DIGITS, 8) + "/B" + chars(UPPER + DIGITS, 8) + "/" + mixed(ALNUM, 24),
      lines: [
        "SLACK_WEBHOOK=https://hooks.slack.com/services/{s}",
        "Alerts post to https://hooks.slack.com/services/{s} (channel #ops).",
      ],
    }),
    () => ({
      kind: "stripe-access-token",
      secret: pick(["sk_live_", "rk_live_", "sk_test_"]).replace("sk", SK) + mixed(ALNUM, between(24, 99)),
    }),
    () => ({
      kind: "openai-api-key",
      secret: SK + "-proj-" + mixed(URLSAFE, 74) + "T3Blbk" + "FJ" + mixed(URLSAFE, 74),
    }),
    () => ({
      kind: "openai-api-key",
      secret: SK + "-" + mixed(ALNUM, 20) + "T3Blbk" + "FJ" + mixed(ALNUM, 20),
    }),
    () => ({ kind: "anthropic-api-key", secret: SK + "-ant-api03-" + mixed(URLSAFE, 93) + "AA" }),
    () => ({ kind: "gcp-api-key", secret: "AI" + "za" + mixed(URLSAFE, 35) }),
    () => {
      const body = Array.from({ length: between(4, 12) }, () => chars(B64, 64)).join("\n");
      const label = pick(["RSA ", "EC ", "OPENSSH ", ""]);
      const secret =
        "-----BEGIN " +
        label +
        "PRIVATE" +
        " KEY-----\n" +
        body +
        "\n-----END " +
        label +
        "PRIVATE" +
        " KEY-----";
      return {
        kind: "private-key",
        secret,
        lines: [
          "id_rsa:\n{s}\n(do not commit)",
          "The key was pasted into the ticket:\n\n{s}\n\nPlease rotate it.",
        ],
      };
    },
    () => ({
      kind: "private-key",
      secret:
        "-----BEGIN " +
        "PRIVATE" +
        " KEY-----\\n" +
        chars(B64, 64) +
        "\\n" +
        chars(B64, 40) +
        "\\n-----END " +
        "PRIVATE" +
        " KEY-----",
      lines: ['{"type": "service_account", "private_key": "{s}\\n", "client_email": "ci@example.iam"}'],
    }),
    () => ({
      kind: "jwt",
      secret: "ey" + "J" + mixed(ALNUM, 30) + ".ey" + "J" + mixed(ALNUM, 60) + "." + mixed(URLSAFE, 43),
    }),
    () => ({
      kind: "npm-access-token",
      secret: "np" + "m_" + mixed(ALNUM, 36),
      lines: ["//registry.npmjs.org/:_authToken={s}", ...ANYWHERE.slice(0, 4)],
    }),
    () => ({
      kind: "pypi-upload-token",
      secret: "py" + "pi-AgEIcHlwaS5vcmc" + mixed(URLSAFE, between(60, 140)),
    }),
    () => ({
      kind: "sendgrid-api-token",
      secret: "S" + "G." + mixed(URLSAFE, 22) + "." + mixed(URLSAFE, 43),
    }),
    () => ({ kind: "twilio-api-key", secret: "S" + "K" + chars(HEX, 32) }),
    () => ({
      kind: "huggingface-access-token",
      secret: "h" + "f_" + mixed(UPPER + LOWER, 34).replace(/\d/g, "q"),
    }),
    () => ({ kind: "digitalocean-pat", secret: "dop" + "_v1_" + chars(HEX, 64) }),
    () => ({ kind: "shopify-access-token", secret: "shp" + "at_" + chars(HEX, 32) }),
    () => ({ kind: "databricks-api-token", secret: "da" + "pi" + chars(HEX, 32) }),
    () => ({
      kind: "telegram-bot-api-token",
      secret: chars(DIGITS, 9) + ":A" + "A" + mixed(URLSAFE, 33),
      lines: ["TELEGRAM_BOT_TOKEN={s}", "bot = Bot(token='{s}')", ...ANYWHERE.slice(0, 3)],
    }),
    () => ({
      kind: "mailgun-private-api-token",
      secret: "key-" + chars(HEX, 32),
      lines: ["MAILGUN_API_KEY={s}", 'mailgun.apiKey: "{s}"', "mailgun_key = {s} # prod"],
    }),
    () => ({
      kind: "azure-storage-account-key",
      secret: mixed(B64, 86) + "==",
      lines: [
        "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=shopassets;AccountKey={s};EndpointSuffix=core.windows.net",
      ],
    }),
    () => ({
      kind: "age-secret-key",
      secret: "AGE-SECRET" + "-KEY-1" + chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    }),
    () => ({ kind: "linear-api-key", secret: "lin" + "_api_" + mixed(ALNUM, 40) }),
    () => ({ kind: "vault-service-token", secret: "hv" + "s." + mixed(URLSAFE, 95) }),
    () => ({
      kind: "url-credentials",
      secret: mixed(ALNUM + "!*+=~_-", between(10, 24)),
      lines: [
        "DATABASE_URL=postgres://app:{s}@db.internal:5432/shop",
        "redis://default:{s}@cache.internal:6379/0 is the cache",
        "git clone https://deploy:{s}@git.example.com/acme/shop.git",
        "amqp://guest:{s}@rabbit:5672/ failed to connect",
      ],
    }),
    () => ({
      kind: "bearer-token",
      secret: mixed(ALNUM + "-._~", between(24, 60)),
      lines: [
        'curl -H "Authorization: Bearer {s}" https://api.example.com/v1/orders',
        '{"headers": {"Authorization": "Bearer {s}"}}',
        "Authorization: Bearer {s}",
        "the proxy forwarded Bearer {s} to the upstream",
      ],
    }),
    () => ({
      kind: "basic-auth",
      secret: btoa(chars(LOWER, 6) + ":" + password()),
      lines: ['curl -H "Authorization: Basic {s}" https://ci.example.com/api', "Authorization: Basic {s}"],
    }),
    () => ({
      kind: "curl-auth-user",
      secret: password(),
      lines: [
        "curl -u admin:{s} https://registry.example.com/v2/",
        "curl --user deploy:{s} -X POST https://ci.example.com/job",
      ],
    }),
    () => ({
      kind: "password",
      secret: password(),
      lines: [
        "DB_PASSWORD={s}",
        "password: {s}",
        '{"username": "deploy", "password": "{s}"}',
        "mysql --host db --password {s} shop",
        "  adminPassword: '{s}'",
        "PGPASSWORD={s} psql -U app shop",
        "./migrate --db-password={s} --dry-run",
        "the new passphrase = {s}.",
      ],
    }),
    () => ({
      kind: "generic-api-key",
      secret: mixed(ALNUM, between(24, 40)),
      lines: [
        "API_KEY={s}",
        '{"client_id": "shop-web", "client_secret": "{s}"}',
        "refresh_token={s}",
        "export SERVICE_SECRET={s}",
        'apiKey: "{s}"',
        "deploy --api-key {s} --env prod",
        'SECRET_KEY_BASE="{s}"',
        "x-access-token: {s}",
        "TOKEN={s}",
        '{"token": "{s}"}',
      ],
    }),
  ];
  return { rand, pick, chars, fakes };
}
