// Sync: the peers this store knows (and a mounted drive or this laptop's home), their last sync,
// what a sync would change each way (a dry run), and a progress bar while one runs.
import { useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { defaultPeers, listPeers, openPeer, syncWith, type SyncResult } from "../../src/engine/sync/sync.ts";
import { syncDetails } from "../../src/engine/sync/summary.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useRefState } from "../hooks/useRefState.ts";
import { fit, pad } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";

export const SYNC_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"], ["d", "dry run: what a sync would change each way"], ["Enter s", "sync with the selected peer"],
  ["r", "reload the peers"], ["?", "keys"], ["q Esc", "back"],
];

interface PeerRow {
  location: string;
  last_sync: string | null;
  /** null: a server, checked only when a sync tries it. */
  reachable: boolean | null;
}

export function SyncScreen(props: { width: number; height: number; active: boolean; onBack: () => void }) {
  const { session, theme } = useUi();
  const peers = useAsync(async () => {
    const known = await listPeers(session);
    const rows: PeerRow[] = known.filter((p) => p.location).map((p) => ({ location: p.location!, last_sync: p.last_sync, reachable: p.reachable }));
    for (const d of await defaultPeers(session)) if (!rows.some((r) => r.location === d)) rows.push({ location: d, last_sync: null, reachable: true });
    return rows;
  }, []);
  const rows = peers.data ?? [];
  const nav = useListNavigation(rows.length, Math.max(1, props.height - 10));
  const [getBusy, setBusy] = useRefState(false);
  const [progress, setProgress] = useState<{ phase: string; done: number; total: number } | null>(null);
  const [result, setResult] = useState<SyncResult | null>(null);
  const [status, setStatus] = useState<string | undefined>();

  const start = async (dryRun: boolean) => {
    const row = rows[nav.selected];
    if (!row || getBusy()) return;
    setBusy(true);
    setResult(null);
    setStatus(undefined);
    setProgress({ phase: "pull", done: 0, total: 0 });
    try {
      const peer = await openPeer(row.location, session.env);
      try {
        const r = await syncWith(session, peer, {
          dryRun, localLocation: session.home.dbPath,
          progress: (phase, done, total) => setProgress({ phase, done, total }),
        });
        setResult(r);
        setStatus(dryRun ? "Dry run: nothing was changed." : `Synced with ${row.location}.`);
        if (!dryRun) peers.reload();
      } finally {
        peer.store.close();
      }
    } catch (e) {
      setStatus((e as Error).message);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  useKeys((input, key) => {
    if (getBusy()) return;
    if (nav.handle(input, key)) return;
    if (input === "d") void start(true);
    else if (key.return || input === "s") void start(false);
    else if (input === "r") peers.reload();
    else if (input === "q" || key.escape) props.onBack();
  }, { isActive: props.active });

  const w = props.width;
  const barWidth = Math.max(10, Math.min(50, w - 30));
  const bar = (done: number, total: number) => {
    const filled = total ? Math.round((done / total) * barWidth) : 0;
    return (theme.ascii ? "#" : "█").repeat(filled) + (theme.ascii ? "-" : "░").repeat(barWidth - filled);
  };
  return (
    <Frame title={`Sync ${theme.g.sep} ${rows.length} peer${rows.length === 1 ? "" : "s"}`} width={w} height={props.height} status={status}
      hints={["Enter sync", "d dry run", "r reload", "? keys", "q back"]}>
      {rows.length === 0 ? (
        <Text color={theme.c("muted")}>{peers.loading ? "Looking for peers…" : "No peers: plug in a MindSave drive, or run `mindsave sync PATH` once (or --add-peer)."}</Text>
      ) : (
        rows.slice(nav.offset, nav.offset + Math.max(1, props.height - 10)).map((p, i) => {
          const sel = nav.offset + i === nav.selected;
          return (
            <Text key={p.location} inverse={sel} wrap="truncate">
              {sel ? theme.g.pointer : " "} {p.reachable === null ? "~" : p.reachable ? theme.g.ok : theme.g.bad} {pad(p.location, Math.max(10, w - 32), theme.g.ellipsis)}
              {"  "}last sync {p.last_sync ? p.last_sync.slice(0, 16).replace("T", " ") : "never"}
            </Text>
          );
        })
      )}
      {progress ? (
        <Box marginTop={1}>
          <Text>{progress.phase === "pull" ? "receiving " : "sending   "}</Text>
          <Text color={theme.c("accent")}>{bar(progress.done, progress.total)}</Text>
          <Text> {progress.done}/{progress.total}</Text>
        </Box>
      ) : null}
      {result ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{result.dry_run ? "A sync would change:" : "Changed:"}</Text>
          {syncDetails(result).map((l, i) => (
            <Text key={i} color={i === 2 ? theme.c("muted") : undefined}>{fit(l, w, theme.g.ellipsis)}</Text>
          ))}
        </Box>
      ) : null}
    </Frame>
  );
}
