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
    const id = env.MINDSAVE_HOST.trim();
    if (!HOST_ID.test(id)) throw new UserError(`MINDSAVE_HOST must be letters, digits, '.', '_', ':' or '-' (at most 64), not ${JSON.stringify(id)}.`);
    return { id, name: env.MINDSAVE_HOST_NAME || id, platform: plat };
  }
  const dir = localHomeDir(env);
  const file = join(dir, "host.json");
  try {
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, "utf8")) as { id?: string };
      if (saved.id && HOST_ID.test(saved.id)) return { id: saved.id, name, platform: plat };
    }
  } catch {
    // unreadable host.json: fall through and write a fresh one
  }
  const id = `h-${newId()}`;
  try {
    ensureLocalHome(env);
    writeFileAtomic(file, JSON.stringify({ id, name, created_at: new Date().toISOString() }, null, 2) + "\n");
    // Two processes racing on first run: whoever renamed last wins; read back so both agree.
    const saved = JSON.parse(readFileSync(file, "utf8")) as { id: string };
    return { id: saved.id, name, platform: plat };
  } catch {
    // A read-only home directory: an id for this run only, derived from the host name so it is stable-ish.
    return { id: `h-${name}`.replace(/[^A-Za-z0-9._:-]/g, "_").slice(0, 64), name, platform: plat };
  }
}
