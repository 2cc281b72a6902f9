// Reading input of a size someone else chose (a file given to `save`, stdin, an import folder) with
// a cap checked before the input is read whole: an oversized file is refused from its size alone,
// and a pipe or a file that grows is read only up to the cap, so memory stays bounded whatever
// comes in: nothing oversized is parsed or copied before it is refused.
import { closeSync, fstatSync, openSync, readSync, constants } from "node:fs";
import { regularFileStat } from "./fs.ts";
import { byteSize } from "./text.ts";

/** Input over its cap: `size` is what was known of it when reading stopped (at least `max` + 1). */
export class TooLarge extends Error {
  constructor(
    readonly size: number,
    readonly max: number,
    readonly whole: boolean,
  ) {
    super(`${whole ? `it is ${byteSize(size)}, over` : "it is over"} the ${byteSize(max)} read of one file`);
  }
}

/** The bytes of an open descriptor, refusing (TooLarge) past `max`: a regular file by its size first. */
function readFdCapped(fd: number, max: number): Buffer {
  const st = fstatSync(fd);
  if (st.isFile() && st.size > max) throw new TooLarge(st.size, max, true);
  const chunks: Buffer[] = [];
  let size = 0;
  // One byte past the cap tells "exactly the cap" from "more"; one past a file's size, that it
  // grew. A file's size picks the buffer: an import reads thousands of small files.
  const chunk = Buffer.allocUnsafe(Math.min(max + 1, st.isFile() ? st.size + 1 : Infinity, 1 << 20));
  for (;;) {
    const n = readSync(fd, chunk, 0, Math.min(chunk.length, max + 1 - size), null);
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
    size += n;
    if (size > max) throw new TooLarge(size, max, false);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

/** A file's text, refused (TooLarge) when it holds more than `max` bytes; a link is followed. */
export function readTextCapped(path: string, max: number): string {
  const fd = openSync(path, "r");
  try {
    return readFdCapped(fd, max).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file's text without following a symbolic link (a folder someone else wrote must not
 * make us read `/etc/passwd` through one), refused (TooLarge) past `max` bytes.
 */
export function readTextNoFollowCapped(path: string, max: number): string {
  const st = regularFileStat(path);
  if (st.size > max) throw new TooLarge(st.size, max, true);
  // O_NOFOLLOW where there is one: the path cannot be swapped for a link between lstat and open.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    return readFdCapped(fd, max).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** A stream's text (stdin), or TooLarge once it has given more than `max` bytes (then it is not read further). */
export async function readStreamCapped(stream: ReadableStream<Uint8Array>, max: number): Promise<string> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      throw new TooLarge(size, max, false);
    }
    parts.push(r.value);
  }
  return Buffer.concat(parts).toString("utf8");
}
