// Retiring a constraint or decision from the snapshot view, or bringing a retired one back: the
// engine's `retire`/`unretire` for the snapshot's project, chosen by number from its own lists so
// a piece of text can never name another item.
import { retire, retireCandidates, unretire, type RetireKind } from "../../src/engine/memory/retire.ts";
import { inline } from "../../src/engine/snapshots/layers.ts";
import { normaliseItem } from "../../src/engine/failures/graph.ts";
import type { Session } from "../../src/engine/session.ts";

/** Retires the item, or brings it back when it is retired already; returns what the view says. */
export async function toggleRetired(
  here: Session,
  item: { kind: RetireKind; text: string },
): Promise<string> {
  const key = normaliseItem(item.text);
  const same = (x: { kind: RetireKind; text: string }) =>
    x.kind === item.kind && normaliseItem(x.text) === key;
  const { candidates, retired } = await retireCandidates(here);
  const was = retired.findIndex(same);
  if (was >= 0) {
    await unretire(here, String(was + 1));
    return `Brought back the ${item.kind} (carried forward again): ${inline(item.text)}`;
  }
  const n = candidates.findIndex(same);
  if (n < 0)
    return `Only what the newest snapshot restores can be retired, and this ${item.kind} is not in it any more.`;
  await retire(here, String(n + 1));
  return `Retired the ${item.kind} (never restored; r undoes): ${inline(item.text)}`;
}
