// Ids: globally unique (UUIDv7, time-ordered) for records created once; content-derived for
// records that two hosts may create independently and must converge on (failures, roots).
// Bun's own hasher: node:crypto costs every command ~2 ms to load.

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
