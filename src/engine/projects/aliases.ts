// A project linked into another (`projects link` sets its merged_into) is an alias of that one:
// every way to a project (its folder, --in, a root) follows the links to the live project.

/**
 * Where `id`'s links lead (`links`: linked project → the project it was linked into): the first
 * project on the way that is linked nowhere. Two hosts that linked two projects each into the
 * other make a cycle: it ends at its smallest id, the same on every store (sync then unlinks that one).
 */
export function linkTarget(id: string, links: ReadonlyMap<string, string>): string {
  const seen: string[] = [];
  for (let at = id; ; at = links.get(at)!) {
    if (!links.has(at)) return at;
    const i = seen.indexOf(at);
    if (i >= 0) return seen.slice(i).sort()[0];
    seen.push(at);
  }
}
