// Sync: the peers this store knows (and a mounted drive or this laptop's home), their last sync,
// what a sync would change each way (a dry run), and a progress bar while one runs.
import { useState } from "react";
import { Box, Text } from "ink";
import { useKeys } from "../hooks/useKeys.ts";
import { defaultPeers, listPeers, mountedDrives, type SyncResult } from "../../src/engine/sync/sync.ts";
import { syncPeers } from "../../src/engine/sync/sync-peers.ts";
import { syncDetails } from "../../src/engine/sync/summary.ts";
import { useUi } from "../context.ts";
import { useAsync } from "../hooks/useAsync.ts";
import { useListNavigation } from "../hooks/useListNavigation.ts";
import { useRefState } from "../hooks/useRefState.ts";
import { fitStart, pad, utcMinute, width, wrap } from "../../src/lib/text.ts";
import { Frame } from "./Frame.tsx";
import type { HelpKeys } from "./HelpOverlay.tsx";
import type { AsyncState } from "../hooks/useAsync.ts";
import type { ListNav } from "../hooks/useListNavigation.ts";

export const SYNC_KEYS: HelpKeys = [
  ["↑/↓ j/k", "move"],
  ["d", "dry run: what a sync would change each way"],
  ["Enter s", "sync with the selected peer"],
  ["r", "look for peers again (a drive just plugged in)"],
  ["?", "keys"],
  ["q Esc", "back"],
];

interface PeerRow {
  location: string;
  last_sync: string | null;
  /** null: a server, checked only when a sync tries it. */
  reachable: boolean | null;
  /** A peer synced before (or added), a MindSave drive found mounted now, or (from a drive) this laptop's home. */
  kind: "known" | "drive" | "local";
}

export function SyncScreen(props: { width: number; height: number; active: boolean; onBack: () => void }) {
  const { theme } = useUi();
  const peers = usePeers();
  const rows = peers.data ?? [];
  const shown = Math.max(1, props.height - 10);
  const nav = useListNavigation(rows.length, shown);
  const sync = useSync(peers);

  useKeys(
    (input, key) => {
      if (nav.handle(input, key)) return;
      const row = rows[nav.selected];
      if (input === "d" && row) void sync.start(row, true);
      else if ((key.return || input === "s") && row) void sync.start(row, false);
      else if (input === "r") peers.reload();
      else if (input === "q" || key.escape) props.onBack();
    },
    { isActive: props.active, ready: !!peers.data || !!peers.error, wait: sync.busy },
  ); // keys wait for a running sync

  const w = props.width;
  return (
    <Frame
      title={`Sync ${theme.g.sep} ${rows.length} peer${rows.length === 1 ? "" : "s"}`}
      width={w}
      height={props.height}
      status={sync.status}
      hints={
        rows.length
          ? ["Enter sync", "d dry run", "r reload", "? keys", "q back"]
          : ["r look again", "? keys", "q back"]
      }
    >
      {rows.length === 0 ? (
        peers.loading && !peers.data ? (
          <Text color={theme.c("muted")}>Looking for peers…</Text>
        ) : (
          <NoPeers error={peers.error} />
        )
      ) : (
        <PeerList rows={rows.slice(nav.offset, nav.offset + shown)} all={rows} nav={nav} width={w} />
      )}
      {sync.progress ? <SyncProgress {...sync.progress} width={w} /> : null}
      {sync.result ? <SyncChanges result={sync.result} width={w} /> : null}
    </Frame>
  );
}

/** The peers: those this store knows, then a mounted MindSave drive or this laptop's home not among them. */
function usePeers(): AsyncState<PeerRow[]> {
  const { session } = useUi();
  return useAsync(async () => {
    const known = await listPeers(session);
    const rows: PeerRow[] = known
      .filter((p) => p.location)
      .map((p) => ({ location: p.location!, last_sync: p.last_sync, reachable: p.reachable, kind: "known" }));
    const drives = mountedDrives(session.env);
    for (const d of await defaultPeers(session)) {
      if (!rows.some((r) => r.location === d))
        rows.push({
          location: d,
          last_sync: null,
          reachable: true,
          kind: drives.includes(d) ? "drive" : "local",
        });
    }
    return rows;
  }, []);
}

interface Progress {
  phase: string;
  done: number;
  total: number;
}

/** A sync (or a dry run) with one peer: its progress while it runs, then what it changed and a status line. */
function useSync(peers: AsyncState<PeerRow[]>) {
  const { session } = useUi();
  const [getBusy, setBusy] = useRefState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState<SyncResult | null>(null);
  const [status, setStatus] = useState<string | undefined>();
  const start = async (row: PeerRow, dryRun: boolean) => {
    if (getBusy()) return;
    setBusy(true);
    setResult(null);
    setStatus(undefined);
    setProgress({ phase: "pull", done: 0, total: 0 });
    try {
      const { results } = await syncPeers(session, row.location, {
        dryRun,
        progress: (phase, done, total) => setProgress({ phase, done, total }),
      });
      setResult(results[0]);
      setStatus(dryRun ? "Dry run: nothing was changed." : `Synced with ${row.location}.`);
      if (!dryRun) peers.reload();
    } catch (e) {
      setStatus((e as Error).message);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };
  return { start, busy: () => getBusy(), progress, result, status };
}

/** The peers shown: a mark (reachable, not, or a server not checked yet), the location, its last sync. */
function PeerList(props: { rows: PeerRow[]; all: PeerRow[]; nav: ListNav; width: number }) {
  const { theme } = useUi();
  const { nav } = props;
  const info = (p: PeerRow) =>
    p.kind === "drive"
      ? "MindSave drive, plugged in"
      : p.kind === "local"
        ? "this laptop's home"
        : `${p.reachable === false ? "not here now · " : ""}last sync ${p.last_sync ? utcMinute(p.last_sync) : "never"}`;
  const infoW = Math.max(0, ...props.all.map((p) => width(info(p))));
  const locW = Math.max(10, props.width - 4 - 2 - infoW - 1);
  const mark = (p: PeerRow) => (p.reachable === null ? "~" : p.reachable ? theme.g.ok : theme.g.bad);
  return props.rows.map((p, i) => {
    const sel = nav.offset + i === nav.selected;
    return (
      <Text key={p.location} inverse={sel} wrap="truncate">
        {sel ? theme.g.pointer : " "} {mark(p)} {pad(fitStart(p.location, locW, theme.g.ellipsis), locW)}
        {"  "}
        {info(p)}
      </Text>
    );
  });
}

/** No peer yet: what a peer is, and the two ways to add one. */
function NoPeers(props: { error?: Error }) {
  const { theme } = useUi();
  const cmd = (text: string) => <Text color={theme.c("accent")}>{text}</Text>;
  return (
    <Box flexDirection="column">
      <Text>
        {props.error
          ? props.error.message
          : "No peers yet: a peer is another MindSave store (a drive, a home, a server)."}
      </Text>
      <Text> </Text>
      <Text>
        {theme.g.bullet} Plug in a MindSave drive (see {cmd("mindsave drive init")}), then press r.
      </Text>
      <Text>{theme.g.bullet} Or add one from a shell:</Text>
      <Text>
        {"    "}
        {cmd("mindsave sync PATH")}
        {"             sync now, and remember the peer"}
      </Text>
      <Text>
        {"    "}
        {cmd("mindsave sync --add-peer PATH")}
        {"  only remember it"}
      </Text>
      <Text color={theme.c("muted")}>
        {"  "}PATH: a drive or home folder, a mindsave.db file, or a libsql:// URL.
      </Text>
    </Box>
  );
}

/** A running sync: receiving or sending, a bar and the count. */
function SyncProgress(props: Progress & { width: number }) {
  const { theme } = useUi();
  const barWidth = Math.max(10, Math.min(50, props.width - 30));
  const filled = props.total ? Math.round((props.done / props.total) * barWidth) : 0;
  const bar = (theme.ascii ? "#" : "█").repeat(filled) + (theme.ascii ? "-" : "░").repeat(barWidth - filled);
  return (
    <Box marginTop={1}>
      <Text>{props.phase === "pull" ? "receiving " : "sending   "}</Text>
      <Text color={theme.c("accent")}>{bar}</Text>
      <Text>
        {" "}
        {props.done}/{props.total}
      </Text>
    </Box>
  );
}

/**
 * A detail line within `cols`, wrapped after a "; " where it can ("…; 2 projects added;" then
 * "2 project folders added"), so a count stays beside its noun; a part too long alone wraps by words.
 */
export function detailLines(line: string, cols: number): string[] {
  const out: string[] = [];
  for (const part of line
    .trim()
    .replace(/\s+/g, " ")
    .split(/(?<=;) /)) {
    const last = out.at(-1);
    if (last !== undefined && width(`${last} ${part}`) <= cols) out[out.length - 1] = `${last} ${part}`;
    else out.push(...wrap(part, cols));
  }
  return out;
}

/** What a sync changed (or a dry run would): every count shows, a long line wraps under its label. */
function SyncChanges(props: { result: SyncResult; width: number }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{props.result.dry_run ? "A sync would change:" : "Changed:"}</Text>
      {syncDetails(props.result).flatMap((l, i) =>
        detailLines(l, Math.max(20, props.width - 6)).map((part, j) => (
          <Text key={`${i}:${j}`}>
            {j === 0 ? "  " : "    "}
            {part}
          </Text>
        )),
      )}
    </Box>
  );
}
