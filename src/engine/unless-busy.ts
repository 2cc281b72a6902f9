// Hooks write only when the store lets them at once: a busy or read-only store skips the write.
import { StoreProblem } from "../store/store.ts";

/** `write`'s result, or `instead` when `skip` and the store cannot be written now: busy with another process's write, or read-only here. */
export async function unlessBusy<T>(skip: boolean, instead: T, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (skip && e instanceof StoreProblem && (e.kind === "busy" || e.kind === "read_only")) return instead;
    throw e;
  }
}
