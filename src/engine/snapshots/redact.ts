// Secrets never go into memory: API keys, tokens, passwords and private keys are replaced before
// anything is stored (snapshots, failures, tool logs).

const RULES: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, "[REDACTED PRIVATE KEY]"],
  [/\b(sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,})/g, "[REDACTED]"],
  [/\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, "[REDACTED]"],
  [/\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})\b/g, "[REDACTED]"],
  [/\b(xox[abposr]-[A-Za-z0-9-]{10,})\b/g, "[REDACTED]"],
  [/\b(glpat-[A-Za-z0-9_-]{20,})\b/g, "[REDACTED]"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, "[REDACTED]"],
  [/\b(npm_[A-Za-z0-9]{36})\b/g, "[REDACTED]"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, "[REDACTED JWT]"],
  [/(\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi, "$1[REDACTED]"],
  [/(\b[A-Za-z0-9_]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|auth)[A-Za-z0-9_]*\s*[=:]\s*)("[^"\n]{4,}"|'[^'\n]{4,}'|[^\s"'\n,;]{4,})/gi, "$1[REDACTED]"],
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]{3,}@/gi, "$1[REDACTED]@"],
];

export function redact(text: string): string {
  let out = text;
  for (const [re, by] of RULES) out = out.replace(re, by);
  return out;
}

/** Redacts every string inside a JSON-like value. */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}
