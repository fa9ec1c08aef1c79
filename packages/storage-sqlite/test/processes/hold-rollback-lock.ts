/**
 * A separate process that opens a new file in SQLite's default rollback-journal mode (the raw
 * driver, not SqliteClientLive, which would switch it to WAL), takes its write lock (a write in
 * an IMMEDIATE transaction), says "locked", holds it for the given milliseconds, then commits:
 * what a process switching a fresh file to WAL holds for a moment.
 */
import { openDatabase } from "../../src/Driver.js"

const [filename, holdMs] = process.argv.slice(2)
if (filename === undefined || holdMs === undefined) throw new Error("usage: hold-rollback-lock.ts <file> <ms>")

const db = openDatabase(filename, { timeoutMs: 5_000 })
db.exec("BEGIN IMMEDIATE")
db.exec("CREATE TABLE IF NOT EXISTS held (x INTEGER)")
process.stdout.write("locked\n")
setTimeout(() => {
  db.exec("COMMIT")
  db.close()
  process.stdout.write("committed\n")
}, Number(holdMs))
