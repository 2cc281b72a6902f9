// `mindsave eject`: makes the home's store whole in its one file before a drive is pulled out. The
// write-ahead log (a laptop's home) is checkpointed into mindsave.db, the store is closed, and no
// journal or log may be left holding anything; then the drive can go. On a laptop's home it just
// checkpoints.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { UserError } from "../../errors.ts";
import { realStorePath, sizeOf } from "../../store/store.ts";
import { DRIVE_MARKER, journalModeFor, prepareHome, resolveHome } from "./home.ts";
import { openStore } from "./encryption.ts";

export interface EjectResult {
  home: string;
  store: string;
  on_drive: boolean;
  /** False when there was no store (nothing to do). */
  existed: boolean;
  read_only: boolean;
  journal_mode: string | null;
  message: string;
}

export async function ejectHome(opts: { home?: string; env?: NodeJS.ProcessEnv } = {}): Promise<EjectResult> {
  const env = opts.env ?? process.env;
  const home = resolveHome({ flag: opts.home, env });
  prepareHome(home, { write: false });
  const db = home.dbPath;
  const onDrive = home.reason === "portable" || existsSync(join(home.dir, DRIVE_MARKER));
  const done = onDrive
    ? "you can remove the drive now (eject it in your system too, so it writes out its cache)."
    : "nothing waits in a journal or log.";
  const base = { home: home.dir, store: db, on_drive: onDrive };
  if (!existsSync(db))
    return {
      ...base,
      existed: false,
      read_only: false,
      journal_mode: null,
      message: `There is no store at ${db}; ${done}`,
    };
  const store = await openStore(db, { journalMode: journalModeFor(home), env });
  let mode: string;
  try {
    mode = (await store.journalMode()).toLowerCase();
    if (!(await store.checkpoint())) {
      throw new UserError(
        `Another program is using the store ${db} (its write-ahead log is in use); close it (an agent or its hooks) and run \`mindsave eject\` again.`,
      );
    }
  } finally {
    await store.closeAsync();
  }
  // Beside a symlink's target, where SQLite keeps them.
  const real = realStorePath(db);
  const left = ["-wal", "-journal"].map((s) => real + s).filter((p) => sizeOf(p) > 0);
  if (left.length) {
    throw new UserError(
      `The store ${db} still has changes waiting in ${left.map((p) => basename(p)).join(" and ")} (another program is using it, or it is read-only here); close that program, or run \`mindsave eject\` where the home is writable, before removing the drive.`,
    );
  }
  return {
    ...base,
    existed: true,
    read_only: store.readOnly,
    journal_mode: mode,
    message: `Everything is in ${db}; ${done}`,
  };
}
