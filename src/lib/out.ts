// Writing to stdout and stderr without Node's stream objects. Making `process.stdout` costs a
// command more CPU than a compiled hello world takes in all, so what commands print
// goes straight to the file descriptor, whole, synchronously. A reader that went away
// (`mindsave snapshots | head -1`) ends the process quietly, as main.ts does for the streams the
// TUI and the MCP server still use (guardStreams).
import { fstatSync, writeSync } from "node:fs";

/**
 * node:tty's isatty, loaded only for a character device: importing node:tty loads Node's whole
 * stream stack, and a pipe or a file (an agent's hook, a script) is never a terminal.
 */
function isatty(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    // (No such descriptor, or a platform whose fstat cannot tell: ask node:tty.)
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

const wait = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `text` to `fd` (1 or 2); on a closed pipe, exits with the exit code so far. */
export function writeFd(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(process.exitCode ?? 0);
      // A non-blocking descriptor whose pipe is full: let the reader catch up.
      if (code === "EAGAIN") Atomics.wait(wait, 0, 0, 2);
      else throw e;
    }
  }
}

// A progress line on stderr is rewritten in place and erased before any other output, so that a
// report, a warning or an error never runs on after it, and nothing of it stays when the work ends.
let progressShown = false;

/** Shows `text` as the progress line on stderr (a terminal), in place of the last one; "" erases it. */
export function writeProgress(text: string): void {
  if (!text && !progressShown) return;
  writeFd(2, `\r\x1b[K${text}`);
  progressShown = text !== "";
}

export const writeOut = (text: string): void => {
  writeProgress("");
  writeFd(1, text);
};
export const writeErr = (text: string): void => {
  writeProgress("");
  writeFd(2, text);
};

/** The terminal's width when stdout is one (reading it from the stream only then), else undefined. */
export function terminalColumns(): number | undefined {
  return isatty(1) ? process.stdout.columns || undefined : undefined;
}

/** Whether fd 0, 1 or 2 is a terminal, without making its stream. */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  return isatty(fd);
}

/** For the commands that write through process.stdout and process.stderr: a closed pipe ends the process quietly. */
export function guardStreams(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
}
