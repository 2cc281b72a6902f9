// The floor of our stack for a plain store: a compiled program that opens the store read-only with
// the SQLite built into Bun (what MindSave opens a plain store with) and runs one SELECT. Every
// MindSave command that reads the store pays at least this; its CPU over hello world's is the part
// of a ratio no change to MindSave's own code can remove.
import { Database } from "bun:sqlite";

const db = new Database(process.argv[2], { readonly: true });
const row = db.prepare("SELECT count(*) AS n FROM snapshots WHERE deleted = 0").get() as { n: number };
console.log(row.n);
