// Copies of one store that went on apart: a drive folder copied to a second stick, a home copied
// to a new laptop, a store put back from a backup. They share a store id, and sync goes by that id
// (how far it pulled each peer's log, and which rows came from whom), so a copy would be taken for
// the store it was copied from: its own changes never read, the other's never sent. Each store
// keeps anchors of every peer's log it pulled; a store met under that id whose log does not
// continue them is another store, and it is given an id of its own before anything is exchanged:
// both sides then read each other whole, and merging what they already share changes nothing.
import type { Store } from "../../store/store.ts";

export interface Reidentified {
  /** Which side was given a new id: the peer, or this store. */
  side: "peer" | "here";
  old_id: string;
  new_id: string;
}

/**
 * The store ids a sync goes by: the stored ones, or, for a side whose log does not continue what
 * the other side last pulled of it, a new one, written into that store unless `dryRun`.
 */
export async function syncIds(
  local: Store,
  peer: Store,
  ids: { local: string; peer: string },
  dryRun: boolean,
): Promise<{ local: string; peer: string; reidentified: Reidentified[] }> {
  const out = { ...ids, reidentified: [] as Reidentified[] };
  const sides = [
    { side: "peer" as const, store: peer, reader: local, key: "peer" as const },
    { side: "here" as const, store: local, reader: peer, key: "local" as const },
  ];
  for (const s of sides) {
    const old = ids[s.key];
    const anchors = await s.reader.syncReader().peerAnchors(old);
    if (!anchors.length || (await s.store.syncReader().continuesLog(anchors))) continue;
    const fresh = crypto.randomUUID();
    if (!dryRun) await s.store.syncWrite((w) => w.setMeta("store_id", fresh));
    out[s.key] = fresh;
    out.reidentified.push({ side: s.side, old_id: old, new_id: fresh });
  }
  return out;
}
