// `mindsave sync [PEER] [--dry-run] [--add-peer PATH] [--list-peers]`: merge with a drive, a home,
// a store file or a libSQL server, both ways.
import { UserError } from "../errors.ts";
import { addPeer, checkBeforeSync, listPeers, removePeer } from "../engine/sync/sync.ts";
import { syncPeers } from "../engine/sync/sync-peers.ts";
import { resolveHome } from "../engine/home/home.ts";
import { syncSummary } from "../engine/sync/summary.ts";
import { print, printJson, terminalProgress, warn, withSession } from "./shared.ts";
import type { GlobalOptions } from "../types.ts";
import type { Session } from "../engine/session.ts";

interface SyncFlags {
  dryRun?: boolean;
  addPeer?: string;
  removePeer?: string;
  listPeers?: boolean;
}

export async function run(opts: SyncFlags, args: string[], g: GlobalOptions): Promise<number> {
  const peerFlag = peerListFlag(opts, args);
  if (args[0] !== undefined && !args[0].trim())
    throw new UserError("The peer is empty; give a drive, a home, a store file or a libSQL server URL.");
  // Before the session opens: a sync that cannot happen starts no store on this home (syncPeers checks again).
  if (!peerFlag)
    checkBeforeSync(args[0], { dryRun: !!opts.dryRun, localDb: resolveHome({ flag: g.home }).dbPath });
  return withSession(g, true, async (session) => {
    if (opts.listPeers) return showPeers(session, g);
    if (opts.removePeer) {
      const p = await removePeer(session, opts.removePeer);
      if (g.json) printJson({ removed: p });
      else print(`Forgot peer ${p.location ?? p.store_id} (its store is untouched).`);
      return 0;
    }
    if (opts.addPeer) {
      const p = await addPeer(session, opts.addPeer);
      if (g.json) printJson(p);
      else print(`Added peer ${p.location}; \`mindsave sync\` now includes it when it is reachable.`);
      return 0;
    }
    return syncNow(session, args[0], opts, g);
  });
}

/**
 * The flag given that changes or shows the list of peers, or null. One thing at a time: a flag
 * that would be ignored (a second one, a peer, --dry-run) is refused instead.
 */
function peerListFlag(opts: SyncFlags, args: string[]): string | null {
  const peerList = [
    opts.listPeers && "--list-peers",
    opts.addPeer !== undefined && "--add-peer",
    opts.removePeer !== undefined && "--remove-peer",
  ].filter((x): x is string => !!x);
  if (peerList.length > 1) throw new UserError(`Give one of ${peerList.join(" and ")} at a time.`);
  if (peerList.length && (args[0] !== undefined || opts.dryRun)) {
    throw new UserError(
      `${peerList[0]} changes or shows the list of peers and syncs nothing; give it without ${args[0] !== undefined ? `the peer ${JSON.stringify(args[0])}` : "--dry-run"}.`,
    );
  }
  return peerList[0] ?? null;
}

/** `--list-peers`: each peer, whether it is here now, and its last sync. */
async function showPeers(session: Session, g: GlobalOptions): Promise<number> {
  const peers = await listPeers(session);
  if (g.json) printJson({ peers });
  else if (!peers.length) print("No peers yet: `mindsave sync PATH` or `mindsave sync --add-peer PATH`.");
  else {
    for (const p of peers) {
      const state = p.reachable === null ? "server" : p.reachable ? "here" : "not here now";
      print(
        `${(p.location ?? p.store_id).padEnd(50)} ${state.padEnd(13)} last sync ${p.last_sync?.slice(0, 16).replace("T", " ") ?? "never"}`,
      );
    }
  }
  return 0;
}

/** Syncs with `peer` (every known peer when none is given); progress on a terminal, a summary per peer. */
async function syncNow(
  session: Session,
  peer: string | undefined,
  opts: SyncFlags,
  g: GlobalOptions,
): Promise<number> {
  const progress = terminalProgress(g);
  const { results, failed } = await syncPeers(session, peer, {
    dryRun: opts.dryRun,
    progress:
      progress && ((phase, done, total) => progress(phase === "pull" ? "receiving" : "sending", done, total)),
    // --json prints everything at the end, as one document.
    onSynced: g.json ? undefined : (r) => print(syncSummary(r)),
    onSkipped: g.json ? undefined : (skipped, error) => warn(`skipped ${skipped}: ${error}`),
  });
  if (g.json) printJson(results.length === 1 && !failed.length ? results[0] : { results, failed });
  return failed.length ? 1 : 0;
}
