/** Counts audit rows in a SQLite file (read while the server still runs: acknowledged = committed). */
import Database from "./sqlite.js"

export const countQuoted = (file: string): number => {
  const db = new Database(file, { timeout: 10_000 })
  try {
    const row = db
      .prepare<{ n: number }>("SELECT count(*) AS n FROM audit WHERE json_extract(entry, '$.decision.outcome') = 'quoted'")
      .get()
    return row?.n ?? 0
  } finally {
    db.close()
  }
}
