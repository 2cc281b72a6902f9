// This machine's identity: a stable id kept in the local home (~/.mindsave/host.json) and a
// readable name. MINDSAVE_HOST overrides the id (tests play several laptops on one machine).
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "../../lib/os.ts";
import { join } from "node:path";
import { ensureLocalHome, localHomeDir } from "./home.ts";
import { newId } from "../ids.ts";
import { writeFileAtomic } from "../../lib/fs.ts";
import { UserError } from "../../errors.ts";

export interface HostIdentity {
  id: string;
  name: string;
  platform: string;
}

export const HOST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export function currentHost(env: NodeJS.ProcessEnv = process.env): HostIdentity {
  const name = env.MINDSAVE_HOST_NAME || hostname() || "unknown-host";
  const plat = `${process.platform}-${process.arch}`;
  if (env.MINDSAVE_HOST) {
    const id = hostIdOverride(env.MINDSAVE_HOST);
    return { id, name: env.MINDSAVE_HOST_NAME || id, platform: plat };
  }
  const file = join(localHomeDir(env), "host.json");
  const machine = machineId();
  return { id: savedHostId(file, machine) ?? firstHostId(env, file, name, machine), name, platform: plat };
}

/** MINDSAVE_HOST, checked: the id a test (or a person) gives this host. */
function hostIdOverride(value: string): string {
  const id = value.trim();
  if (!HOST_ID.test(id))
    throw new UserError(
      `MINDSAVE_HOST must be letters, digits, '.', '_', ':' or '-' (at most 64), not ${JSON.stringify(id)}.`,
    );
  return id;
}

/** This host's id from host.json, the one kept for this machine if the file is another machine's; null if none is kept. */
function savedHostId(file: string, machine: string | null): string | null {
  try {
    if (!existsSync(file)) return null;
    const saved = JSON.parse(readFileSync(file, "utf8")) as {
      id?: string;
      machine?: string;
      machines?: Record<string, string>;
    };
    if (!saved.id || !HOST_ID.test(saved.id)) return null;
    if (!machine || !saved.machine || saved.machine === machine) {
      if (machine && !saved.machine) remember(file, { ...saved, machine });
      return saved.id;
    }
    // Another machine's host.json: a home copied to a new laptop, or one home shared by two
    // machines (a network home directory). Each machine gets an id of its own, kept here by
    // its machine id, so two laptops never share roots, counters and cleanup under one id.
    const known = saved.machines?.[machine];
    if (known && HOST_ID.test(known)) return known;
    return addMachine(file, saved, machine);
  } catch {
    // unreadable host.json: a fresh one is written
    return null;
  }
}

/** A new id for this host, written to host.json (the first run on this machine, or an unreadable file). */
function firstHostId(env: NodeJS.ProcessEnv, file: string, name: string, machine: string | null): string {
  const id = `h-${newId()}`;
  try {
    ensureLocalHome(env);
    writeFileAtomic(
      file,
      JSON.stringify(
        { id, name, created_at: new Date().toISOString(), ...(machine ? { machine } : {}) },
        null,
        2,
      ) + "\n",
    );
    // Two processes racing on first run: whoever renamed last wins; read back so both agree.
    const saved = JSON.parse(readFileSync(file, "utf8")) as { id: string };
    return saved.id;
  } catch {
    // A read-only home directory: an id for this run only, derived from the host name so it is stable-ish.
    return `h-${name}`.replace(/[^A-Za-z0-9._:-]/g, "_").slice(0, 64);
  }
}

/** This machine's own id where the system keeps one in a file (Linux's machine-id); null elsewhere. */
function machineId(): string | null {
  if (process.platform !== "linux") return null;
  for (const f of ["/etc/machine-id", "/var/lib/dbus/machine-id"]) {
    try {
      const v = readFileSync(f, "utf8").trim();
      if (/^[0-9a-f]{32}$/.test(v)) return v;
    } catch {
      // not there: the next one
    }
  }
  return null;
}

/** A new id for this machine, added to another machine's host.json (never replacing its own id). */
function addMachine(file: string, saved: { machines?: Record<string, string> }, machine: string): string {
  const mine = `h-${newId()}`;
  try {
    writeFileAtomic(
      file,
      JSON.stringify({ ...saved, machines: { ...saved.machines, [machine]: mine } }, null, 2) + "\n",
    );
    // Two processes racing: whoever renamed last wins; read back so both agree.
    const again = JSON.parse(readFileSync(file, "utf8")) as { machines?: Record<string, string> };
    const kept = again.machines?.[machine];
    return kept && HOST_ID.test(kept) ? kept : mine;
  } catch {
    return mine; // a home it cannot write: an id for this run
  }
}

/** host.json with what it lacked (an older one without the machine id); a home it cannot write keeps it as it was. */
function remember(file: string, value: object): void {
  try {
    writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n");
  } catch {
    // read-only: the id stands, the copy check waits for a writable home
  }
}
