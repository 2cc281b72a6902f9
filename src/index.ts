// The library: the engine's public surface, matching the spec's TypeScript SDK usage.
export { ConstraintCompressor, compressLayer2 } from "./engine/compressor.ts";
export type { CompressionResult, Layer2Compressed, SymbolicEntry } from "./engine/compressor.ts";
export { Session } from "./engine/session.ts";
export { saveSnapshot } from "./engine/save.ts";
export { loadSnapshot, selectSnapshot, buildRestoreBlock, verifyFiles } from "./engine/restore.ts";
export { parseSnapshotText, fromFields } from "./engine/snapshot-input.ts";
export { topicSlug } from "./engine/slug.ts";
export * as signal from "./engine/signal.ts";
