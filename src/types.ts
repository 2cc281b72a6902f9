// Types shared by the command line and every command module, kept apart so that commands never
// import cli.ts (which loads them): no import cycle, not even a type-only one.

/** The options every command accepts, before or after its name. */
export interface GlobalOptions {
  home?: string;
  workspace?: string;
  /** `--in PROJECT`: a project by id or name instead of the current directory's. */
  project?: string;
  json?: boolean;
}
