// Ids: globally unique (UUIDv7, time-ordered) for records created once; content-derived for
// records that two hosts may create independently and must converge on (failures, roots).
// Bun's own hasher: loading node:crypto would cost every command.

export function newId(): string {
  return Bun.randomUUIDv7();
}

export function derivedId(prefix: string, ...parts: string[]): string {
  const h = new Bun.CryptoHasher("sha256");
  for (const p of parts) h.update(p).update("\0");
  return `${prefix}_${h.digest("hex").slice(0, 24)}`;
}

export function sha256(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

/** JSON with every object's keys sorted: the same value gives the same text, however it was built. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

/** What a record holds, as a hash: its fields but `omit` (its clock, writer, tombstone, host-local ones). */
export function contentDigest(record: object, omit: readonly string[]): string {
  const o = Object.fromEntries(Object.entries(record).filter(([k]) => !omit.includes(k)));
  return sha256(canonical(o)).slice(0, 32);
}
