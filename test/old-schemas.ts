// A store taken back to an older schema, as the MindSave of that schema left it: what a later
// migration made is dropped and the version set back, so an open runs the upgrade again.
import { sql } from "./helpers.ts";

/** Schema 5: no failure_ranks (migration 6) nor its triggers and index. */
export async function backToSchema5(db: string): Promise<void> {
  const made = await sql(
    db,
    "SELECT type, name FROM sqlite_master WHERE (type = 'trigger' AND name LIKE '%\\_rank\\_%' ESCAPE '\\') OR (type = 'index' AND name = 'failures_item')",
  );
  for (const m of made) await sql(db, `DROP ${String(m.type).toUpperCase()} ${String(m.name)}`);
  await sql(db, "DROP TABLE failure_ranks");
  await sql(db, "UPDATE meta SET value = '5' WHERE key = 'schema_version'");
}
