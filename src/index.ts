// The library: the engine's public surface, matching the spec's TypeScript SDK usage.
export { ConstraintCompressor, compressLayer2 } from "./engine/snapshots/compressor.ts";
export type { CompressionResult, Layer2Compressed, SymbolicEntry } from "./engine/snapshots/compressor.ts";
export { Session } from "./engine/session.ts";
export { resolveProject, requireProject } from "./engine/projects/resolve.ts";
export type { ProjectContext } from "./engine/projects/resolve.ts";
export { saveSnapshot } from "./engine/snapshots/save.ts";
export { loadSnapshot, buildRestoreBlock } from "./engine/snapshots/restore.ts";
export { selectSnapshot } from "./engine/snapshots/select.ts";
export { verifyFiles } from "./engine/snapshots/verify.ts";
export { parseSnapshotText, fromFields } from "./engine/snapshots/input.ts";
export { topicSlug } from "./engine/snapshots/slug.ts";
export * as signal from "./engine/agents/signal.ts";
