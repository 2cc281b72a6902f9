// The secret formats redaction knows (data; `redact.ts` applies them).
//
// Source: gitleaks' rule set, config/gitleaks.toml (https://github.com/gitleaks/gitleaks,
// commit b58d3f1, July 2026), MIT License, Copyright (c) 2019 Zachary Rice.
// Rule ids are gitleaks' ids where gitleaks has the rule. The regexes are converted from Go (RE2)
// to JavaScript: an inline `(?i)` in the middle becomes explicit character classes (or the `i`
// flag when it covered the whole rule), `(?-i:…)` becomes literal case, unbounded quantifiers are
// bounded, and gitleaks' trailing `(?:[\x60'"\s;]|\\[nr]|$)` becomes the zero-width `(?![\w-])`
// so a token that ends a sentence ("…, then sk_live_….") is still found. Some rules are widened
// for redaction (noted), and a few formats gitleaks has no rule for are added (no gitleaks id).
//
// Unlike gitleaks, a token with its format's own prefix (`ghp_`, `glpat-`, `xoxb-`…) needs no
// entropy: a placeholder that looks like a secret (`ghp_` and 36 × `a`) is treated as one.
//
// A rule's match is replaced by `[REDACTED:<kind>]`, except a leading named group `keep`, which
// stays (e.g. `postgres://user:` before a password). `keywords` are lowercase substrings: the
// regex only runs when the text contains one. `entropy` is the minimum Shannon entropy (bits per
// character) of the replaced part, as in gitleaks. `allow` leaves a documented example alone.
// `plausible` asks for a value that looks like a secret (no word, placeholder, path or URL).

export interface SecretRule {
  id: string;
  /** The tag written into the text; the id when absent. */
  kind?: string;
  regex: RegExp;
  keywords?: string[];
  entropy?: number;
  allow?: RegExp;
  plausible?: boolean;
}

import { STAND_IN } from "./word-secrets.ts";

/** A cookie whose name says it holds a session or a credential. */
const SESSION_COOKIE = String.raw`[^=;\s"']{0,100}(?:sess|sid|token|auth|jwt|login|remember|secret|pass|key|csrf|xsrf)[^=;\s"']{0,100}`;
const ANY_COOKIE = String.raw`[^=;\s"']{1,100}`;

function cookieRules(): SecretRule[] {
  const header = String.raw`\b(?<!Set-)Cookie["']?[ \t]{0,3}:[ \t]{0,3}["']?(?:[^=;\s"']{1,100}=[^;\s"']{0,4096};[ \t]{0,3}){0,30}`;
  const set = String.raw`\bSet-Cookie["']?[ \t]{0,3}:[ \t]{0,3}["']?`;
  const value = String.raw`(?!\[REDACTED)[^;\s"']{1,4096}`;
  return [
    {
      id: "cookie",
      regex: new RegExp(`(?<=${header}${SESSION_COOKIE}=)${value}`, "gi"),
      keywords: ["cookie"],
    },
    {
      id: "cookie",
      regex: new RegExp(`(?<=${header}${ANY_COOKIE}=)${value}`, "gi"),
      keywords: ["cookie"],
      plausible: true,
    },
    {
      id: "cookie",
      regex: new RegExp(`(?<keep>${set}${SESSION_COOKIE}=)${value}`, "gi"),
      keywords: ["set-cookie"],
    },
    {
      id: "cookie",
      regex: new RegExp(`(?<keep>${set}${ANY_COOKIE}=)${value}`, "gi"),
      keywords: ["set-cookie"],
      plausible: true,
    },
  ];
}

/** curl's `-u user:password` after `gap` (what may stand between `curl` and `-u`). */
function curlUserRules(gap: string, keywords: string[]): SecretRule[] {
  const flag = String.raw`\bcurl\b${gap}[ \t](?:-u|--user)(?:=|[ \t]{1,5})`;
  return [
    {
      id: "curl-auth-user",
      keywords,
      allow: STAND_IN,
      regex: new RegExp(
        String.raw`(?<keep>${flag}["']?\{?[\w.@-]{0,64}\}?["']?:["']?)(?![$<*[]|\{\{|\[REDACTED)\{?[^\s"'{}]{3,128}`,
        "g",
      ),
    },
    {
      id: "curl-auth-user",
      keywords,
      plausible: true,
      regex: new RegExp(String.raw`(?<keep>${flag}["'])(?![$<*{[]|\[REDACTED)[^\s"':]{8,128}(?=:["'])`, "g"),
    },
  ];
}

/**
 * Private keys first: a PEM block holds base64 lines other rules could half-match. Widened: a
 * block cut off before its END line is redacted up to the end of its base64 lines.
 */
function privateKeyRules(): SecretRule[] {
  return [
    {
      id: "private-key",
      regex:
        /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,8000}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?:(?:\s|\\[nr]){1,4}[A-Za-z0-9+/=:,-]{16,100}){0,200})/gi,
      keywords: ["-----begin"],
    },
    {
      id: "age-secret-key",
      regex: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g,
      keywords: ["age-secret-key-1"],
    },
  ];
}

/** Cloud providers. */
function cloudRules(): SecretRule[] {
  return [
    {
      id: "aws-access-token",
      kind: "aws-access-key",
      regex: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g,
      keywords: ["a3t", "akia", "asia", "abia", "acca"],
      entropy: 3,
      allow: /.+EXAMPLE$/,
    },
    // No gitleaks rule: the 40-character secret key, only beside its name.
    {
      id: "aws-secret-access-key",
      regex:
        /(?<keep>(?:aws_?)?secret_?access_?key["']?[ \t]{0,3}(?:=|:|:=|=>)[ \t]{0,3}["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/gi,
      keywords: ["secret"],
      entropy: 3,
      allow: /EXAMPLEKEY$/,
    },
    { id: "gcp-api-key", regex: /\bAIza[\w-]{35}(?![\w-])/g, keywords: ["aiza"], entropy: 3 },
    // No gitleaks rule: an Azure storage connection string's key.
    {
      id: "azure-storage-account-key",
      regex: /(?<keep>\bAccountKey=)[A-Za-z0-9+/]{40,100}={0,2}/g,
      keywords: ["accountkey="],
      entropy: 3,
    },
    {
      id: "azure-ad-client-secret",
      regex: /(?<=^|[\\'"\x60\s>=:(,)])[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34}(?=$|[\\'"\x60\s<),])/g,
      keywords: ["q~"],
      entropy: 3,
    },
    { id: "digitalocean-pat", regex: /\bdop_v1_[a-f0-9]{64}(?![\w-])/g, keywords: ["dop_v1_"] },
    { id: "digitalocean-access-token", regex: /\bdoo_v1_[a-f0-9]{64}(?![\w-])/g, keywords: ["doo_v1_"] },
    { id: "digitalocean-refresh-token", regex: /\bdor_v1_[a-f0-9]{64}(?![\w-])/gi, keywords: ["dor_v1_"] },
    { id: "databricks-api-token", regex: /\bdapi[a-f0-9]{32}(?:-\d)?(?![\w-])/g, keywords: ["dapi"] },
    { id: "heroku-api-key-v2", regex: /\bHRKU-AA[0-9a-zA-Z_-]{58}(?![\w-])/g, keywords: ["hrku-aa"] },
    { id: "pulumi-api-token", regex: /\bpul-[a-f0-9]{40}(?![\w-])/g, keywords: ["pul-"] },
    { id: "doppler-api-token", regex: /dp\.pt\.[A-Za-z0-9]{43}/g, keywords: ["dp.pt."] },
    { id: "vault-service-token", regex: /\bhvs\.[\w-]{90,120}(?![\w-])/g, keywords: ["hvs."] },
    { id: "vault-batch-token", regex: /\bhvb\.[\w-]{138,300}(?![\w-])/g, keywords: ["hvb."] },
    { id: "planetscale-password", regex: /\bpscale_pw_[\w=.-]{32,64}(?![\w-])/gi, keywords: ["pscale_pw_"] },
    {
      id: "planetscale-api-token",
      regex: /\bpscale_tkn_[\w=.-]{32,64}(?![\w-])/gi,
      keywords: ["pscale_tkn_"],
    },
  ];
}

/** Source hosting and package registries. Widened: GitHub tokens up to 255 characters. */
function sourceHostRules(): SecretRule[] {
  return [
    { id: "github-pat", regex: /ghp_[0-9a-zA-Z]{36,255}/g, keywords: ["ghp_"] },
    { id: "github-oauth", regex: /gho_[0-9a-zA-Z]{36,255}/g, keywords: ["gho_"] },
    { id: "github-app-token", regex: /(?:ghu|ghs)_[0-9a-zA-Z]{36,255}/g, keywords: ["ghu_", "ghs_"] },
    { id: "github-refresh-token", regex: /ghr_[0-9a-zA-Z]{36,255}/g, keywords: ["ghr_"] },
    { id: "github-fine-grained-pat", regex: /github_pat_\w{82,255}/g, keywords: ["github_pat_"] },
    // Widened: gitleaks' gitlab-pat (20 characters) and gitlab-pat-routable (27–300 and a suffix) in one.
    { id: "gitlab-pat", regex: /glpat-[\w-]{20,300}(?:\.[0-9a-z]{9})?/g, keywords: ["glpat-"] },
    { id: "gitlab-ptt", regex: /glptt-[0-9a-f]{40}/g, keywords: ["glptt-"] },
    { id: "gitlab-deploy-token", regex: /gldt-[0-9a-zA-Z_-]{20}/g, keywords: ["gldt-"] },
    { id: "gitlab-runner-authentication-token", regex: /glrt-[0-9a-zA-Z_-]{20}/g, keywords: ["glrt-"] },
    { id: "gitlab-feed-token", regex: /glft-[0-9a-zA-Z_-]{20}/g, keywords: ["glft-"] },
    { id: "gitlab-oauth-app-secret", regex: /gloas-[0-9a-zA-Z_-]{64}/g, keywords: ["gloas-"] },
    { id: "npm-access-token", regex: /\bnpm_[a-z0-9]{36}(?![\w-])/gi, keywords: ["npm_"] },
    {
      id: "pypi-upload-token",
      regex: /pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}/g,
      keywords: ["pypi-ageichlwas5vcmc"],
    },
    { id: "rubygems-api-token", regex: /\brubygems_[a-f0-9]{48}(?![\w-])/g, keywords: ["rubygems_"] },
  ];
}

/** Chat and messaging. Slack: the specific shapes first, then any other xox?- token (widened). */
function chatRules(): SecretRule[] {
  return [
    {
      id: "slack-bot-token",
      regex: /xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]{0,100}/g,
      keywords: ["xoxb"],
    },
    {
      id: "slack-user-token",
      regex: /xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}/g,
      keywords: ["xoxp-", "xoxe-"],
    },
    {
      id: "slack-app-token",
      regex: /xapp-\d-[A-Z0-9]{1,100}-\d{1,30}-[a-z0-9]{1,200}/gi,
      keywords: ["xapp"],
    },
    {
      id: "slack-config-access-token",
      regex: /xoxe.xox[bp]-\d-[A-Z0-9]{163,166}/gi,
      keywords: ["xoxe.xoxb-", "xoxe.xoxp-"],
    },
    { id: "slack-config-refresh-token", regex: /xoxe-\d-[A-Z0-9]{146}/gi, keywords: ["xoxe-"] },
    { id: "slack-legacy-bot-token", regex: /xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}/g, keywords: ["xoxb"] },
    {
      id: "slack-legacy-token",
      regex: /xox[os]-\d{1,30}-\d{1,30}-\d{1,30}-[a-fA-F\d]{1,200}/g,
      keywords: ["xoxo-", "xoxs-"],
    },
    {
      id: "slack-legacy-workspace-token",
      regex: /xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}/g,
      keywords: ["xoxa-", "xoxr-"],
    },
    { id: "slack-token", regex: /\bxox[abposr]-[A-Za-z0-9-]{10,250}/g, keywords: ["xox"] },
    // Widened: the whole secret path is replaced, the host kept.
    {
      id: "slack-webhook-url",
      regex:
        /(?<keep>(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9+/]{20,120}/g,
      keywords: ["hooks.slack.com"],
    },
    {
      id: "microsoft-teams-webhook",
      regex:
        /https:\/\/[a-z0-9]{1,60}\.webhook\.office\.com\/webhookb2\/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}\/IncomingWebhook\/[a-z0-9]{32}\/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}/g,
      keywords: ["webhook.office.com"],
    },
    // Widened: no "telegr" needed nearby; the `digits:A…` shape is distinctive enough.
    {
      id: "telegram-bot-api-token",
      regex: /\b[0-9]{5,16}:A[a-zA-Z0-9_-]{34}(?![\w-])/g,
      keywords: [":a"],
      entropy: 3,
    },
    { id: "twilio-api-key", regex: /\bSK[0-9a-fA-F]{32}\b/g, keywords: ["sk"], entropy: 3 },
    { id: "sendgrid-api-token", regex: /\bSG\.[A-Za-z0-9=_\-.]{66}(?![\w-])/g, keywords: ["sg."] },
    {
      id: "sendinblue-api-token",
      regex: /\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}(?![\w-])/g,
      keywords: ["xkeysib-"],
    },
    {
      id: "mailgun-private-api-token",
      regex:
        /(?<keep>mailgun[ \t\w.-]{0,20}[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5})key-[a-f0-9]{32}(?![\w-])/gi,
      keywords: ["mailgun"],
    },
  ];
}

/** Payments and commerce. */
function paymentRules(): SecretRule[] {
  return [
    {
      id: "stripe-access-token",
      regex: /\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}(?![\w-])/g,
      keywords: ["sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod"],
    },
    { id: "shopify-access-token", regex: /shpat_[a-fA-F0-9]{32}/g, keywords: ["shpat_"] },
    { id: "shopify-custom-access-token", regex: /shpca_[a-fA-F0-9]{32}/g, keywords: ["shpca_"] },
    { id: "shopify-private-app-access-token", regex: /shppa_[a-fA-F0-9]{32}/g, keywords: ["shppa_"] },
    { id: "shopify-shared-secret", regex: /shpss_[a-fA-F0-9]{32}/g, keywords: ["shpss_"] },
    {
      id: "square-access-token",
      regex: /\b(?:EAAA|sq0atp-)[\w-]{22,60}(?![\w-])/g,
      keywords: ["eaaa", "sq0atp-"],
      entropy: 2,
    },
  ];
}

/**
 * AI providers. Widened: OpenAI project, service-account and admin keys of any length (gitleaks
 * wants the T3BlbkFJ marker; the second rule is gitleaks' own), Anthropic keys of any version.
 */
function aiProviderRules(): SecretRule[] {
  return [
    {
      id: "openai-api-key",
      regex: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,300}/g,
      keywords: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
    },
    {
      id: "openai-api-key",
      regex: /\bsk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}(?![\w-])/g,
      keywords: ["t3blbkfj"],
    },
    {
      id: "anthropic-admin-api-key",
      regex: /\bsk-ant-admin01-[a-zA-Z0-9_-]{20,300}/g,
      keywords: ["sk-ant-admin01"],
    },
    {
      id: "anthropic-api-key",
      regex: /\bsk-ant-(?:api|oat|ort)\d\d-[a-zA-Z0-9_-]{20,300}/g,
      keywords: ["sk-ant-"],
    },
    { id: "huggingface-access-token", regex: /\bhf_[a-zA-Z]{34}(?![\w-])/g, keywords: ["hf_"] },
    {
      id: "huggingface-organization-api-token",
      regex: /\bapi_org_[a-zA-Z]{34}(?![\w-])/g,
      keywords: ["api_org_"],
    },
    { id: "perplexity-api-key", regex: /\bpplx-[a-zA-Z0-9]{48}\b/g, keywords: ["pplx-"] },
  ];
}

/** Work tools. */
function workToolRules(): SecretRule[] {
  return [
    { id: "linear-api-key", regex: /lin_api_[A-Za-z0-9]{40}/g, keywords: ["lin_api_"] },
    { id: "notion-api-token", regex: /\bntn_[0-9]{11}[A-Za-z0-9]{35}(?![\w-])/g, keywords: ["ntn_"] },
    {
      id: "postman-api-token",
      regex: /\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}(?![\w-])/g,
      keywords: ["pmak-"],
    },
    { id: "sentry-user-token", regex: /\bsntryu_[a-f0-9]{64}(?![\w-])/g, keywords: ["sntryu_"] },
    {
      id: "grafana-cloud-api-token",
      regex: /\bglc_[A-Za-z0-9+/]{32,400}={0,3}(?![\w-])/gi,
      keywords: ["glc_"],
    },
    {
      id: "grafana-service-account-token",
      regex: /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![\w-])/gi,
      keywords: ["glsa_"],
    },
    {
      id: "1password-service-account-token",
      regex: /ops_eyJ[a-zA-Z0-9+/]{250,5000}={0,3}/g,
      keywords: ["ops_"],
    },
  ];
}

/** JSON Web Tokens (after the rules above: some of those tokens start with "ey"). */
function jwtRules(): SecretRule[] {
  return [
    {
      id: "jwt",
      regex:
        /\bey[a-zA-Z0-9]{17,2000}\.ey[a-zA-Z0-9/\\_-]{17,8000}\.(?:[a-zA-Z0-9/\\_-]{10,2000}={0,2})?(?![\w-])/g,
      keywords: ["ey"],
      entropy: 3,
    },
  ];
}

/** Credentials in context (no gitleaks id unless named): URLs, HTTP headers, curl. */
function credentialsInContext(): SecretRule[] {
  return [
    {
      id: "url-credentials",
      regex:
        /(?<keep>\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'<>]{0,100}:)(?![$<*{]|\[REDACTED)[^\s@/"'<>]{1,200}(?=@[A-Za-z0-9[])/gi,
      keywords: ["://"],
      allow: STAND_IN,
    },
    {
      id: "bearer-token",
      regex:
        /(?<keep>\bAuthorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?Bearer[ \t]{1,3})(?!\[REDACTED)[A-Za-z0-9._~+/=-]{8,4096}/gi,
      keywords: ["authorization"],
      entropy: 3,
      plausible: true,
    },
    {
      id: "basic-auth",
      regex:
        /(?<keep>\bAuthorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?Basic[ \t]{1,3})[A-Za-z0-9+/]{8,4096}={0,3}/gi,
      keywords: ["authorization"],
      entropy: 2.5,
      plausible: true,
    },
    // A bearer token without the header name: only long, secret-looking ones ("Bearer token handling" stays).
    {
      id: "bearer-token",
      regex: /(?<keep>\bBearer[ \t]{1,3})(?!\[REDACTED)[A-Za-z0-9._~+/=-]{20,4096}/g,
      keywords: ["bearer"],
      entropy: 3,
      plausible: true,
    },
    // Widened: the user may be empty or in quotes and braces; a word password is one
    // (`elastic:changeme`), only gitleaks' stand-ins stay (`user:pass`). gitleaks also takes a user
    // with an empty password (`-u "token:"`): the user is the secret. Each rule twice: on one line,
    // and (only where a line ends in `\`, as scanning across lines costs every text) a command
    // continued over several.
    ...curlUserRules(String.raw`[^\n]{0,200}?`, ["curl"]),
    ...curlUserRules(String.raw`(?:[^\n]|\\\r?\n){0,400}?`, ["\\\n"]),
    // No gitleaks id: any other Authorization scheme (`Token …`, `Api-Token …`, none at all).
    {
      id: "authorization",
      regex:
        /(?<keep>\bAuthorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?(?:(?!Bearer|Basic)[A-Za-z-]{2,20}[ \t]{1,3})?)(?!\[REDACTED|Bearer|Basic)[A-Za-z0-9._~+/=@-]{8,4096}/gi,
      keywords: ["authorization"],
      entropy: 3,
      plausible: true,
    },
    // Passwords on command lines: `mysql -psecret` (attached: `-p` alone asks), `sshpass -p secret`, `redis-cli -a secret`.
    {
      id: "command-line-password",
      kind: "password",
      regex:
        /(?<keep>\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?[ \t]-p)(?![$<*{[]|\[REDACTED)(?=[^\s"'`|;&]{0,127}[\p{L}\p{N}])[^\s"'`|;&]{1,128}/gu,
      keywords: ["mysql", "mariadb"],
    },
    {
      id: "command-line-password",
      kind: "password",
      regex:
        /(?<keep>\b(?:sshpass\b[^\n|;&]{0,100}?[ \t]-p|redis-cli\b[^\n|;&]{0,200}?[ \t]-a)[ \t]{0,3}["']?)(?![$<*{[]|\[REDACTED)(?=[^\s"'`|;&]{0,127}[\p{L}\p{N}])[^\s"'`|;&]{1,128}/gu,
      keywords: ["sshpass", "redis-cli"],
    },
    // A .netrc entry: `machine host login user password secret`, on one line or several.
    {
      id: "netrc-password",
      kind: "password",
      regex:
        /(?<keep>\b(?:machine[ \t]+\S{1,200}|default)(?:\s{1,20}(?:login|account|port)[ \t]+\S{1,200}){0,3}\s{1,20}password[ \t]+)(?![$<*{[]|\[REDACTED)\S{1,200}/g,
      keywords: ["machine", "default"],
    },
  ];
}

let rules: SecretRule[] | null = null;

/**
 * Every rule, in the order they run (a text is redacted rule after rule), made on first use: every
 * command loads this module, few redact (`load` never does).
 */
export function secretRules(): SecretRule[] {
  return (rules ??= [
    ...privateKeyRules(),
    ...cloudRules(),
    ...sourceHostRules(),
    ...chatRules(),
    ...paymentRules(),
    ...aiProviderRules(),
    ...workToolRules(),
    ...jwtRules(),
    ...credentialsInContext(),
    // Cookies: every value of a `Cookie:` header, the first (the cookie itself) of a `Set-Cookie:`;
    // a session's whatever it is, others when they look like a secret (`theme=dark` stays).
    ...cookieRules(),
  ]);
}

/**
 * Every keyword of the rules above, as a list of its own: `redact.ts` learns from it that no rule
 * can match a text without building the table (85 regexes). test/redaction.test.ts checks that it
 * is exactly the table's keywords: a rule with a new keyword fails that test until it is added here.
 */
export const RULE_KEYWORDS: readonly string[] = [
  "-----begin",
  "age-secret-key-1",
  "a3t",
  "akia",
  "asia",
  "abia",
  "acca",
  "secret",
  "aiza",
  "accountkey=",
  "q~",
  "dop_v1_",
  "doo_v1_",
  "dor_v1_",
  "dapi",
  "hrku-aa",
  "pul-",
  "dp.pt.",
  "hvs.",
  "hvb.",
  "pscale_pw_",
  "pscale_tkn_",
  "ghp_",
  "gho_",
  "ghu_",
  "ghs_",
  "ghr_",
  "github_pat_",
  "glpat-",
  "glptt-",
  "gldt-",
  "glrt-",
  "glft-",
  "gloas-",
  "npm_",
  "pypi-ageichlwas5vcmc",
  "rubygems_",
  "xoxb",
  "xoxp-",
  "xoxe-",
  "xapp",
  "xoxe.xoxb-",
  "xoxe.xoxp-",
  "xoxo-",
  "xoxs-",
  "xoxa-",
  "xoxr-",
  "xox",
  "hooks.slack.com",
  "webhook.office.com",
  ":a",
  "sk",
  "sg.",
  "xkeysib-",
  "mailgun",
  "sk_test",
  "sk_live",
  "sk_prod",
  "rk_test",
  "rk_live",
  "rk_prod",
  "shpat_",
  "shpca_",
  "shppa_",
  "shpss_",
  "eaaa",
  "sq0atp-",
  "sk-proj-",
  "sk-svcacct-",
  "sk-admin-",
  "t3blbkfj",
  "sk-ant-admin01",
  "sk-ant-",
  "hf_",
  "api_org_",
  "pplx-",
  "lin_api_",
  "ntn_",
  "pmak-",
  "sntryu_",
  "glc_",
  "glsa_",
  "ops_",
  "ey",
  "://",
  "authorization",
  "bearer",
  "curl",
  "\\\n",
  "mysql",
  "mariadb",
  "sshpass",
  "redis-cli",
  "machine",
  "default",
  "cookie",
  "set-cookie",
];

/**
 * Names that make `NAME=value`, `NAME: value`, `"name": "value"` and `--name value` the assignment
 * of a secret. A key matches when its last words are one of these (`DB_PASSWORD`, `clientSecret`,
 * `OPENAI_API_KEY`, `x-access-token`); words are joined by `_`, `-`, `.`, nothing, or camelCase.
 */
export const SECRET_KEY_NAMES: { kind: string; names: string[] }[] = [
  { kind: "password", names: ["password", "passwd", "pwd", "passphrase", "pgpassword", "pass"] },
  {
    kind: "generic-api-key",
    names: [
      "secret",
      "api_key",
      "access_key",
      "secret_key",
      "private_key",
      "secret_key_base",
      "encryption_key",
      "signing_key",
      "master_key",
      "token",
      "credentials",
      "creds",
      "auth",
    ],
  },
];

/**
 * Names that are prose unless written as an assignment (`TOKEN=…`, `"token": "…"`, `--token …`)
 * or with a prefix (`db_pass: …`, `user_auth: …`): a bare `token: rotate`, `pass: 12`, `auth: JWT`.
 */
export const NAMES_NEEDING_ASSIGNMENT = new Set(["token", "pass", "credentials", "creds", "auth"]);

/**
 * Names too vague to make a plain word a secret unless a prefix names what they open (`db_pass`,
 * `DB_CREDENTIALS`): `"auth": "basic"`, `"pass": "green"` stay; a secret-looking value still counts.
 */
export const WORDS_NEED_PREFIX = new Set(["pass", "credentials", "creds", "auth"]);

/** Words after a key name that make it describe the secret, not hold it (`password_file`, `tokenUrl`, `SECRET_NAME`). */
export const NOT_SECRET_KEY_SUFFIX = new Set([
  "file",
  "path",
  "dir",
  "url",
  "uri",
  "endpoint",
  "type",
  "name",
  "id",
  "ids",
  "field",
  "label",
  "prompt",
  "placeholder",
  "hint",
  "help",
  "message",
  "msg",
  "error",
  "policy",
  "regex",
  "pattern",
  "length",
  "len",
  "size",
  "min",
  "max",
  "count",
  "enabled",
  "required",
  "env",
  "var",
  "header",
  "param",
  "column",
  "input",
  "template",
  "format",
  "ttl",
  "timeout",
  "version",
  "rule",
  "rules",
  "validation",
  "manager",
  "store",
  "provider",
  "source",
  "ref",
  "mode",
  "method",
  "expiry",
  "expires",
  "expiration",
  "reset",
  "changed",
  "updated",
  "created",
  "limit",
  "budget",
  "usage",
  "used",
  "left",
  "remaining",
  "index",
  "idx",
  "offset",
  "total",
  "estimate",
  "ratio",
  "rate",
  "threshold",
  "window",
  "bytes",
  "chars",
  "counter",
  "strength",
  "score",
  "kind",
  "class",
]);

/** Words before a key name that make it no secret (`csrf_token`, `page_token`). */
export const NOT_SECRET_KEY_PREFIX = /(?:csrf|xsrf|public|page|next_page|continuation|cancellation)[_.-]?$/i;
