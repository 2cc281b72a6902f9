// The floor of our stack for an encrypted store: a compiled program that loads libSQL's native
// module (the `libsql` package, which MindSave opens encrypted stores with), opens the store
// read-only and runs one SELECT. Plain stores use Bun's own SQLite (sqlite-select.ts).
import Database from "libsql";

const db = new Database(process.argv[2], { readonly: true } as never);
const row = db.prepare("SELECT count(*) AS n FROM snapshots WHERE deleted = 0").get() as { n: number };
console.log(row.n);
