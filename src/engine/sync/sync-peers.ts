// The sync use case, whoever asks for it (the CLI, the TUI): the pre-sync check, the peer given or
// the default peers (unreachable ones skipped and reported), and each peer closed with its WAL
// folded into its file, so a drive pulled out after a sync holds the whole store.
import { UserError } from "../../errors.ts";
import {
  checkBeforeSync,
  defaultPeers,
  listPeers,
  openPeer,
  syncWith,
  type Progress,
  type SyncResult,
} from "./sync.ts";
import type { Session } from "../session.ts";

export interface SyncRun {
  results: SyncResult[];
  /** Default peers that could not be opened (a drive unplugged, a server down): the others still synced. */
  failed: { peer: string; error: string }[];
}

export interface SyncPeersOptions {
  dryRun?: boolean;
  progress?: Progress;
  /** Told of each peer as it is done, before the next one starts. */
  onSynced?: (r: SyncResult) => void;
  onSkipped?: (peer: string, error: string) => void;
}

/** Syncs with `spec`, or without one with the default peers. A named peer that cannot be opened is an error. */
export async function syncPeers(
  session: Session,
  spec: string | undefined,
  opts: SyncPeersOptions = {},
): Promise<SyncRun> {
  checkBeforeSync(spec, { dryRun: !!opts.dryRun, localDb: session.home.dbPath });
  const targets = spec !== undefined ? [spec] : await defaultPeers(session);
  if (!targets.length) throw await noPeer(session);
  const run: SyncRun = { results: [], failed: [] };
  for (const target of targets) {
    let peer;
    try {
      peer = await openPeer(target, session.env);
    } catch (e) {
      if (targets.length === 1) throw e;
      run.failed.push({ peer: target, error: (e as Error).message });
      opts.onSkipped?.(target, (e as Error).message);
      continue;
    }
    try {
      const r = await syncWith(session, peer, {
        dryRun: opts.dryRun,
        progress: opts.progress,
        localLocation: session.home.dbPath,
      });
      run.results.push(r);
      opts.onSynced?.(r);
    } finally {
      await peer.store.closeAsync();
    }
  }
  return run;
}

/** Why a plain sync has no peer: the known ones are not reachable now, or there are none. */
async function noPeer(session: Session): Promise<UserError> {
  const missing = (await listPeers(session))
    .filter((p) => p.reachable === false && p.location)
    .map((p) => p.location!);
  if (missing.length)
    return new UserError(
      `No peer is here now: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not reachable (a drive unplugged?); plug it in, or give another peer (\`mindsave sync PATH\`).`,
    );
  return new UserError(
    "No peer to sync with: plug in the drive, give one (`mindsave sync PATH` or `libsql://…`), or add one with --add-peer.",
  );
}
