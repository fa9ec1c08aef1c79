// The audit writer thread (see AuditWriterThread.ts): commits batches of audit rows on its own
// connection, so that the fsync of each commit (0.5-4 ms here) waits on this thread instead of
// the event loop that serves requests. Plain CommonJS because a worker thread gets no
// TypeScript loader: it runs as is under tsx, vitest and the compiled build alike.
"use strict"
const { parentPort, workerData } = require("node:worker_threads")
// The driver of Driver.ts (libsql), by the absolute path the main thread resolved.
const Database = require(workerData.driver)

const db = new Database(workerData.filename, { timeout: workerData.busyTimeoutMs })
db.pragma("journal_mode = WAL")
// An acknowledged audit entry must survive power loss: FULL, as on the main connection.
db.pragma("synchronous = FULL")
db.pragma(`busy_timeout = ${Number(workerData.busyTimeoutMs)}`)

// An entry already stored (same account, time and request id: the audit's unique key, AUDIT_KEY
// in storage-sql) is skipped: a retried append is safe, and one duplicate cannot fail the rest
// of its batch, as on the SQL path.
const insert = db.prepare(
  "INSERT INTO audit (request_id, account_id, received_at_ms, entry) VALUES (?, ?, ?, ?) " +
    "ON CONFLICT (account_id, received_at_ms, request_id) DO NOTHING"
)
const commit = db.transaction((rows) => {
  // Each row is already the statement's positional parameters, as one array.
  for (const row of rows) insert.run(row)
})
// Retention's delete batch (AUDIT_DELETE_STATEMENT of storage-sql, passed in by the main thread),
// here so that neither the delete nor its fsync holds the event loop, and appends and deletes
// take turns on one connection instead of contending for the write lock.
// A delete need not be durable (rows it removed and a power cut brought back go at the next
// pass), so its commit skips the fsync: synchronous NORMAL for that one transaction. The next
// append's commit (FULL) syncs the WAL up to and including its own frames, so no acknowledged
// append waits on, or loses, anything because of it. Without this, every delete batch held the
// appends behind it for one more fsync.
const deleteOld = db.prepare(workerData.deleteStatement)
const deleteInTransaction = db.transaction((afterSeq, limit, beforeMs) => deleteOld.all(afterSeq, limit, beforeMs))
const deleteBatch = (afterSeq, limit, beforeMs) => {
  db.pragma("synchronous = NORMAL")
  try {
    return deleteInTransaction.immediate(afterSeq, limit, beforeMs)
  } finally {
    db.pragma("synchronous = FULL")
  }
}

parentPort.on("message", (message) => {
  if (message.kind === "close") {
    db.close()
    parentPort.close()
    return
  }
  if (message.kind === "delete") {
    try {
      const started = performance.now()
      const rows = deleteBatch(message.afterSeq, message.limit, message.beforeMs)
      let lastSeq
      for (const row of rows) if (lastSeq === undefined || row.seq > lastSeq) lastSeq = row.seq
      // How long the delete held this thread, apart from the appends queued before it:
      // retention rests nineteen times that (Retention.ts in storage-sql).
      parentPort.postMessage({ id: message.id, deleted: rows.length, lastSeq, busyMs: performance.now() - started })
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) })
    }
    return
  }
  try {
    // IMMEDIATE: take the write lock first, waiting up to busy_timeout for another writer
    // (a deferred BEGIN can fail at once with SQLITE_BUSY when its read must become a write).
    commit.immediate(message.rows)
    parentPort.postMessage({ id: message.id })
  } catch (error) {
    // The driver's own words ("database is locked", "disk I/O error"), never the rows.
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) })
  }
})
parentPort.postMessage({ kind: "ready" })
