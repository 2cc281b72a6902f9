// The floor of our stack: a compiled program that loads libSQL's native module (the `libsql`
// package MindSave's store driver is built on), opens the store read-only and runs one SELECT.
// Every MindSave command that reads the store pays at least this; its CPU over hello world's is
// the part of a ratio no change to MindSave's own code can remove.
import Database from "libsql";

const db = new Database(process.argv[2], { readonly: true } as never);
const row = db.prepare("SELECT count(*) AS n FROM snapshots WHERE deleted = 0").get() as { n: number };
console.log(row.n);
