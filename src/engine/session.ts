// One command's view of the world: the home and its store, this host, and the project chosen for it
// (--in), if any. It opens, closes and runs transactions; which project a folder is, is
// projects/resolve.ts's. Commands and the TUI reach the store only through the engine.
import { existsSync } from "node:fs";
import { resolveHome, prepareHome, refuseStorelessFolder, journalModeFor, type Home } from "./home/home.ts";
import { currentHost, type HostIdentity } from "./home/host.ts";
import { openStore } from "./home/encryption.ts";
import { backupStore } from "./home/backups.ts";
import { scrubSignal } from "./agents/signal-row.ts";
import { SCHEMA_VERSION, type Store, type StoreWriter, type Queries } from "../store/store.ts";

export interface SessionOptions {
  home?: string;
  workspace?: string;
  /** A project chosen by id, id prefix or name instead of the current directory's. */
  project?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** How long a write waits for another process's write lock (default 15 s; a hook waits less). */
  busyTimeoutMs?: number;
}

export class Session {
  private constructor(
    readonly home: Home,
    readonly store: Store,
    readonly host: HostIdentity,
    readonly opts: SessionOptions,
    /** git's answers to remember beside the store once the command is done (see `close`); shared with `forProject`'s sessions. */
    private readonly remember: (() => void)[] = [],
  ) {}

  static async open(
    opts: SessionOptions = {},
    mode: { write: boolean } = { write: false },
  ): Promise<Session> {
    const env = opts.env ?? process.env;
    const home = resolveHome({ flag: opts.home, env });
    prepareHome(home, { write: mode.write || !existsSync(home.dbPath) });
    const host = currentHost(env);
    refuseStorelessFolder(home, mode.write);
    // An encrypted store opens with its passphrase's key (home/encryption.ts); an older schema is backed up before its upgrade.
    let upgraded: string | null = null;
    const store = await openStore(home.dbPath, {
      journalMode: journalModeFor(home),
      busyTimeoutMs: opts.busyTimeoutMs,
      env,
      beforeMigrate: async (s, from) => {
        const { backup } = await backupStore(s, home.dbPath, { at: opts.now ? opts.now() : new Date(), env });
        upgraded = `Upgraded the store ${home.dbPath} from schema ${from} to ${SCHEMA_VERSION}; the store as it was is kept as ${backup}.`;
      },
    });
    const session = new Session(home, store, host, opts);
    if (upgraded) session.notice(upgraded);
    return session;
  }

  get cwd(): string {
    return this.opts.cwd ?? process.cwd();
  }

  get env(): NodeJS.ProcessEnv {
    return this.opts.env ?? process.env;
  }

  now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  /** Keeps `write` (git's answers, remembered in the home) for `close`, which runs it unless the store turned out damaged. */
  readonly later = (write: () => void) => this.remember.push(write);

  /** What a failed command takes back at `close`, e.g. the `.mindsave/project.json` it wrote. */
  private readonly undo: (() => Promise<void>)[] = [];

  onFailure(takeBack: () => Promise<void>): void {
    this.undo.push(takeBack);
  }

  /**
   * Closes the store (folding a WAL back into mindsave.db after writes), and remembers git's
   * answers in the home, unless the store turned out damaged: a look at it leaves nothing beside it.
   */
  async close(opts: { failed?: boolean } = {}): Promise<void> {
    if (opts.failed) for (const takeBack of this.undo.splice(0)) await takeBack();
    if (!this.store.damaged) for (const write of this.remember.splice(0)) write();
    return this.store.closeAsync();
  }

  /** Runs a command's `fn` and closes the session: after a failure, as `close({ failed: true })`. */
  async run<T>(fn: (session: Session) => Promise<T>): Promise<T> {
    const result = await fn(this).catch(async (e: unknown) => {
      await this.close({ failed: true });
      throw e;
    });
    await this.close();
    return result;
  }

  private writer: StoreWriter | null = null;

  /** Where to read: the open write transaction when there is one (its connection is the only one), else the store. */
  get reader(): Queries {
    return this.writer ?? this.store;
  }

  /** Changes whenever another process commits to the store (a screen kept open reads its rows again then). */
  storeVersion = (): Promise<number> => this.store.dataVersion();

  /**
   * Runs `fn` in one write transaction, after recording this host in the store. Called inside
   * another `write` (an import of many snapshots), it joins that transaction: all or nothing.
   */
  async write<T>(fn: (w: StoreWriter) => Promise<T>): Promise<T> {
    if (this.writer) return fn(this.writer);
    return this.store.write(
      this.host.id,
      async (w) => {
        // The signal's free-form data is redacted as a whole where it is stored (every other table
        // has one engine function its rows come in through, which redacts them).
        w.scrubSignal = scrubSignal;
        this.writer = w;
        try {
          return await this.hostThen(w, fn);
        } finally {
          this.writer = null;
        }
      },
      () => this.now().getTime(),
    );
  }

  /** Records this host (at most once a day), then runs `fn`. */
  private async hostThen<T>(w: StoreWriter, fn: (w: StoreWriter) => Promise<T>): Promise<T> {
    const now = this.now().toISOString();
    const known = await w.getHost(this.host.id);
    if (!known || known.name !== this.host.name || known.last_seen.slice(0, 10) !== now.slice(0, 10)) {
      await w.upsertHost({
        id: this.host.id,
        name: this.host.name,
        platform: this.host.platform,
        first_seen: known?.first_seen ?? now,
        last_seen: now,
      });
    }
    return fn(w);
  }

  private pinned: string | undefined;

  /** The project chosen by id or name for this session (`--in`, `import --into`), if any. */
  get projectKey(): string | undefined {
    return this.pinned ?? this.opts.project;
  }

  /** From now on this session acts on project `id`, whatever the workspace (see projects/resolve.ts's pinProject). */
  pin(id: string): void {
    this.pinned = id;
  }

  /**
   * The same store and host acting on project `id`, as `--in` would: what the TUI uses on a screen
   * of a project chosen from a list, so "here" means that project. Never close it (the store is shared).
   */
  forProject(id: string): Session {
    return new Session(this.home, this.store, this.host, { ...this.opts, project: id }, this.remember);
  }

  /** Sentences for the person (e.g. "this checkout matches two projects"), each said once. */
  readonly notices: string[] = [];

  notice(text: string): void {
    if (!this.notices.includes(text)) this.notices.push(text);
  }
}
