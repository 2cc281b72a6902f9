// What can go wrong with a store file, each said in one sentence that names the file and what to
// do. Every error the driver raises on opening, reading or writing a store passes through
// `storeProblem` (the store's one error mapping); what it does not recognise stays as it is (a
// bug of ours: "internal error").
import { UserError } from "../errors.ts";
import type { Exec, Statement } from "./db.ts";

export type StoreProblemKind =
  | "not_a_database" // not a SQLite file at all
  | "foreign" // a SQLite database of another program
  | "newer" // a MindSave store of a newer schema
  | "damaged" // malformed pages, a truncated file
  | "undecryptable" // an encrypted store the key does not open
  | "read_only" // a write-protected file, folder or medium
  | "needs_writable" // readable only once its folder is writable (a hot journal, a stranded WAL, an upgrade)
  | "full" // no space left
  | "io" // the medium failed (a pulled drive)
  | "cant_open"
  | "busy";

/** A store that cannot be used as it is: the person's to fix (exit 1), never an internal error. */
export class StoreProblem extends UserError {
  /** `inDoctor`: the sentence `mindsave doctor` itself shows, when `message` sends the reader to doctor. */
  constructor(
    readonly kind: StoreProblemKind,
    readonly path: string,
    message: string,
    readonly inDoctor = message,
  ) {
    super(message);
    this.name = "StoreProblem";
  }
}

/** The driver's codes and message for `e`, in one string to match on. */
export function driverCodes(e: unknown): string {
  const x = e as {
    code?: unknown;
    extendedCode?: unknown;
    cause?: { code?: unknown };
    message?: unknown;
  } | null;
  return [x?.extendedCode, x?.code, x?.cause?.code, x?.message]
    .filter((v) => typeof v === "string")
    .join(" ");
}

/** The first line of the driver's message, without its code prefix. */
function reason(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg
    .split("\n")[0]
    .replace(/^SQLITE_[A-Z_]+:\s*/, "")
    .replace(/\.$/, "");
}

export function readOnlyProblem(path: string): StoreProblem {
  return new StoreProblem(
    "read_only",
    path,
    `The store ${path} is read-only here (a write-protected file, folder or drive), so nothing was written; reading it works, and to change it make it writable or copy its home to a writable place.`,
  );
}

export function damagedProblem(path: string, why: string): StoreProblem {
  const repair = "`mindsave doctor --repair` to recover what can still be read into a new file";
  return new StoreProblem(
    "damaged",
    path,
    `The store ${path} is damaged (${why}); run \`mindsave doctor\` to see what is wrong and ${repair}.`,
    `The store ${path} is damaged (${why}); run ${repair}.`,
  );
}

/**
 * The sentence for a driver error on the store at `path`; other errors are returned as they are.
 * `encrypted`: the store is opened with a key (then "not a database" means the wrong key or damage).
 */
export function storeProblem(path: string, e: unknown, ctx: { encrypted?: boolean } = {}): Error {
  if (e instanceof UserError) return e;
  const codes = driverCodes(e);
  if (/SQLITE_FULL|ENOSPC|disk is full|No space left/i.test(codes)) {
    return new StoreProblem(
      "full",
      path,
      `The disk holding the store ${path} is full, so nothing was saved; free some space on it (or choose another home with --home) and try again.`,
    );
  }
  if (/READONLY_(ROLLBACK|RECOVERY|CANTINIT|CANTLOCK)/.test(codes)) {
    return new StoreProblem(
      "needs_writable",
      path,
      `The store ${path} was left in the middle of a write and can only be read again once that is finished, which needs its file and folder to be writable; open it once where they are.`,
    );
  }
  if (/SQLITE_READONLY|EROFS|EACCES|read-only file system|readonly database/i.test(codes))
    return readOnlyProblem(path);
  if (/SQLITE_NOTADB|not a database/i.test(codes)) {
    return ctx.encrypted
      ? new StoreProblem(
          "undecryptable",
          path,
          `The encrypted store ${path} cannot be read with the key its key file gives for this passphrase: the file is damaged or is not the store that key file belongs to; restore it from a backup.`,
        )
      : damagedProblem(path, "its header is not a readable SQLite database");
  }
  if (/SQLITE_CORRUPT|malformed/i.test(codes)) return damagedProblem(path, reason(e));
  if (/SQLITE_IOERR|disk I\/O error|\bEIO\b/i.test(codes)) {
    const failed = `Reading or writing the store ${path} failed (${reason(e)}); check that its drive is still connected and healthy`;
    return new StoreProblem("io", path, `${failed}, then run \`mindsave doctor\`.`, `${failed}.`);
  }
  if (/SQLITE_CANTOPEN|unable to open/i.test(codes)) {
    return new StoreProblem(
      "cant_open",
      path,
      `Cannot open the store ${path}: check that its directory exists and is writable.`,
    );
  }
  if (/SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(codes)) {
    return new StoreProblem(
      "busy",
      path,
      `The store ${path} is busy (another MindSave, or another program, is using it); try again in a moment.`,
    );
  }
  return e instanceof Error ? e : new Error(String(e));
}

/** A write refused because the store's file was swapped for another while this command had it open. */
export function replacedProblem(path: string): StoreProblem {
  return new StoreProblem(
    "busy",
    path,
    `The store ${path} was replaced by another command (encrypt, decrypt or a repair) while this one had it open, so nothing was written here; run the command again (the TUI: quit and open it again).`,
  );
}

/** `e`, after marking `seen` when it says the store is damaged. */
export function noteDamage(seen: { damaged: boolean }, e: Error): Error {
  if (e instanceof StoreProblem && e.kind === "damaged") seen.damaged = true;
  return e;
}

/** `db` with every call's driver errors passed through `map` (the store's error mapping). */
export function guarded(db: Exec, map: (e: unknown) => Error): Exec {
  return {
    async execute(statement: Statement) {
      try {
        return await db.execute(statement);
      } catch (e) {
        throw map(e);
      }
    },
  };
}
