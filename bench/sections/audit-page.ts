/**
 * Audit page at depth: BENCH_AUDIT_ROWS (1,000,000) audit rows in a SQLite file migrated by
 * the project's own migrations (`ridequote migrate`), rows as the project writes them (the
 * JSON entry of a real quote, encoded with core's AuditEntry schema), 60 % in one hot account
 * and the rest over 1,000 accounts. Then, per query, the median of per-run medians:
 *   - `AuditLog.pageJson` through the project's layer (SqlAuditLogLive on SqliteClientLive),
 *     which is what `GET /v1/audit/recent` serves: the first page, and the page
 *     BENCH_AUDIT_DEPTH (500,000) deep via its keyset cursor;
 *   - `AuditLog.page`, the same pages decoded into records (what an embedder reads);
 *   - the same SQL on the driver directly (no decode), and LIMIT/OFFSET at that depth.
 */
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { join } from "node:path"
import Database from "../lib/sqlite.js"
import { DateTime, Layer, ManagedRuntime, Schema } from "effect"
import type { AccountId, AuditQuery, RequestId } from "../../packages/core/src/index.js"
import { AuditEntry, AuditLog, uuidV4FromBytes } from "../../packages/core/src/index.js"
import { SqlAuditLogLive } from "../../packages/storage-sql/src/index.js"
import { SqliteClientLive } from "../../packages/storage-sqlite/src/index.js"
import { auditPage } from "../lib/config.js"
import { makeTempDir } from "../lib/procs.js"
import { migrateDatabase } from "../lib/ridequote.js"
import { log } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import { fmt, median, type Spread, spread, table } from "../lib/stats.js"
import { sampleAuditRecord } from "../quotes.js"

const PAGE = 50
const PLACEHOLDER_ID = "00000000-0000-4000-8000-0000000000aa"
const EPOCH_ISO = "1970-01-01T00:00:00.000Z"

/** The checked decode (every refinement) AuditLog.page avoids with core's trusted decoder. */
const decodeEntries = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ entry: Schema.parseJson(AuditEntry) })))

const uuid = (): string => uuidV4FromBytes(randomBytes(16))

interface Built {
  readonly file: string
  readonly hot: string
  readonly small: string
  readonly rows: number
  readonly buildSeconds: number
  /** Bytes of one entry (the JSON of a real quote). */
  readonly entryBytes: number
}

const build = async (): Promise<Built> => {
  const rows = auditPage.rows
  const file = auditPage.keepFile ?? join(makeTempDir("audit"), "audit.db")
  if (auditPage.keepFile !== undefined && existsSync(file)) {
    const db = new Database(file)
    try {
      const meta = db.prepare<{ hot: string; small: string; rows: number; entryBytes: number }>("SELECT hot, small, rows, entry_bytes AS entryBytes FROM bench_meta").get()
      if (meta !== undefined && meta.rows === rows) {
        log(`audit: reusing ${file} (${rows} rows)`)
        return { file, hot: meta.hot, small: meta.small, rows, buildSeconds: 0, entryBytes: meta.entryBytes }
      }
    } catch {
      // not ours: rebuilt below would clash, so refuse
    } finally {
      db.close()
    }
    throw new Error(`${file} exists but is not a bench audit file of ${rows} rows; delete it or unset BENCH_AUDIT_DB`)
  }
  const t0 = Date.now()
  await migrateDatabase(file)
  const record = sampleAuditRecord()
  const template = Schema.encodeSync(Schema.parseJson(AuditEntry))({
    requestId: PLACEHOLDER_ID as RequestId,
    receivedAt: DateTime.unsafeMake(0),
    ...(record.request !== undefined ? { request: record.request } : {}),
    decision: record.decision
  })
  if (!template.includes(PLACEHOLDER_ID) || !template.includes(EPOCH_ISO)) throw new Error("unexpected audit entry template")
  const [head, rest] = template.split(PLACEHOLDER_ID) as [string, string]
  const [mid, tail] = rest.split(EPOCH_ISO) as [string, string]
  const hot = uuid()
  const others = Array.from({ length: 1000 }, uuid)
  // Request ids sorted and times increasing in the same order: both the primary key and the
  // page index are filled at their edge, so the build appends instead of splitting pages.
  const ids = Array.from({ length: rows }, uuid).sort()
  const base = Date.UTC(2026, 0, 1)
  const db = new Database(file)
  db.pragma("synchronous = OFF")
  db.pragma("cache_size = -400000")
  const insert = db.prepare("INSERT INTO audit (request_id, account_id, received_at_ms, entry) VALUES (?, ?, ?, ?)")
  const chunk = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const id = ids[i] ?? ""
      const at = base + i
      const account = i % 5 < 3 ? hot : (others[Math.floor(i / 5) % 1000] ?? hot)
      insert.run(id, account, at, head + id + mid + new Date(at).toISOString() + tail)
    }
  })
  const step = 50_000
  for (let from = 0; from < rows; from += step) {
    chunk(from, Math.min(rows, from + step))
    if ((from / step) % 4 === 3) log(`audit: ${from + step} of ${rows} rows`)
    await new Promise((r) => setImmediate(r))
  }
  const entryBytes = template.length
  db.exec("CREATE TABLE bench_meta (hot TEXT, small TEXT, rows INTEGER, entry_bytes INTEGER)")
  db.prepare("INSERT INTO bench_meta VALUES (?, ?, ?, ?)").run(hot, others[0] ?? hot, rows, entryBytes)
  db.pragma("wal_checkpoint(TRUNCATE)")
  db.close()
  const buildSeconds = (Date.now() - t0) / 1000
  log(`audit: built ${rows} rows in ${Math.round(buildSeconds)} s`)
  return { file, hot, small: others[0] ?? hot, rows, buildSeconds, entryBytes }
}

interface QueryResult {
  readonly name: string
  readonly runMediansMs: Array<number>
  readonly all: Array<number>
}

export const auditPageSection: Section = {
  id: "audit",
  title: `Audit page at ${auditPage.rows.toLocaleString("en-US")} rows: keyset (the project's AuditLog.pageJson and page) vs OFFSET`,
  run: async () => {
    const b = await build()
    const hotRows = Math.floor((b.rows * 3) / 5)
    const depth = Math.min(auditPage.depth, hotRows - PAGE)
    const raw = new Database(b.file)
    const runtime = ManagedRuntime.make(SqlAuditLogLive().pipe(Layer.provide(SqliteClientLive(b.file))))
    try {
      const audit = await runtime.runPromise(AuditLog)
      const cursorRow = raw
        .prepare<{ request_id: string; received_at_ms: number }>(
          "SELECT request_id, received_at_ms FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT 1 OFFSET ?"
        )
        .get(b.hot, depth - 1)
      if (cursorRow === undefined) throw new Error("no row at the requested depth")
      const keysetSql = raw.prepare<{ entry: string }>(
        "SELECT entry FROM audit WHERE account_id = ? AND (received_at_ms, request_id) < (?, ?) " +
          "ORDER BY received_at_ms DESC, request_id DESC LIMIT ?"
      )
      const firstSql = raw.prepare<{ entry: string }>(
        "SELECT entry FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT ?"
      )
      const offsetSql = raw.prepare<{ entry: string }>(
        "SELECT entry FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT ? OFFSET ?"
      )
      const after = {
        receivedAt: DateTime.unsafeMake(cursorRow.received_at_ms),
        requestId: cursorRow.request_id as RequestId
      }
      const q = (accountId: string, deep: boolean): AuditQuery => ({
        accountId: accountId as AccountId,
        limit: PAGE,
        ...(deep ? { after } : {})
      })
      const page = (query: AuditQuery) => runtime.runPromise(audit.page(query))
      const pageJson = (query: AuditQuery) => runtime.runPromise(audit.pageJson(query))

      // Check: the deep keyset page and OFFSET agree, and both are full pages; the served JSON
      // is the decoded page's entries.
      const deepPage = await page(q(b.hot, true))
      const deepJson = await pageJson(q(b.hot, true))
      if (JSON.stringify(deepJson.entries.map((e) => (JSON.parse(e) as { requestId: string }).requestId)) !== JSON.stringify(deepPage.entries.map((e) => e.requestId))) {
        throw new Error("pageJson and page disagree")
      }
      const offsetIds = offsetSql.all(b.hot, PAGE, depth).map((r) => (JSON.parse(r.entry) as { requestId: string }).requestId)
      const keysetIds = deepPage.entries.map((e) => e.requestId as string)
      if (keysetIds.length !== PAGE || JSON.stringify(keysetIds) !== JSON.stringify(offsetIds)) {
        throw new Error("keyset page and OFFSET page disagree")
      }

      const plan = raw
        .prepare<{ detail: string }>(
          "EXPLAIN QUERY PLAN SELECT entry FROM audit WHERE account_id = ? AND (received_at_ms, request_id) < (?, ?) " +
            "ORDER BY received_at_ms DESC, request_id DESC LIMIT 51"
        )
        .all(b.hot, cursorRow.received_at_ms, cursorRow.request_id)
        .map((r) => r.detail)
        .join("; ")

      const firstRows = firstSql.all(b.hot, PAGE + 1)
      const n = auditPage.runs >= 5 ? 200 : 100
      const queries: ReadonlyArray<{ name: string; times: number; run: () => Promise<unknown> | unknown }> = [
        { name: "AuditLog.pageJson (served by GET /v1/audit/recent), first page, hot account", times: n, run: () => pageJson(q(b.hot, false)) },
        {
          name: `AuditLog.pageJson, ${depth.toLocaleString("en-US")} deep (keyset cursor)`,
          times: n,
          run: () => pageJson(q(b.hot, true))
        },
        { name: "AuditLog.pageJson, first page, small account", times: n, run: () => pageJson(q(b.small, false)) },
        { name: "same SQL on the driver, first page (no decode)", times: n, run: () => firstSql.all(b.hot, PAGE + 1) },
        {
          name: `same SQL on the driver, ${depth.toLocaleString("en-US")} deep (no decode)`,
          times: n,
          run: () => keysetSql.all(b.hot, cursorRow.received_at_ms, cursorRow.request_id, PAGE + 1)
        },
        {
          name: "full schema decode of those 51 entries alone (parseJson(AuditEntry), for comparison)",
          times: n,
          run: () => decodeEntries(firstRows)
        },
        { name: `LIMIT ${PAGE + 1} OFFSET ${depth.toLocaleString("en-US")} (no decode)`, times: 5, run: () => offsetSql.all(b.hot, PAGE + 1, depth) },
        { name: "AuditLog.page (decoded records, for embedders), first page, hot account", times: n, run: () => page(q(b.hot, false)) },
        { name: `AuditLog.page (decoded records), ${depth.toLocaleString("en-US")} deep`, times: n, run: () => page(q(b.hot, true)) }
      ]
      const results: Array<QueryResult> = queries.map((x) => ({ name: x.name, runMediansMs: [], all: [] }))
      for (let r = 0; r < auditPage.runs; r++) {
        for (const [i, x] of queries.entries()) {
          await x.run() // warm
          const times: Array<number> = []
          for (let k = 0; k < x.times; k++) {
            const t0 = performance.now()
            await x.run()
            times.push(performance.now() - t0)
          }
          results[i]?.runMediansMs.push(median(times))
          results[i]?.all.push(...times)
        }
        log(`audit: run ${r + 1}/${auditPage.runs} done`)
      }
      const p99 = (xs: ReadonlyArray<number>) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length * 0.99)] ?? Number.NaN
      const spreads: Array<{ name: string; ms: Spread; p99Ms: number }> = results.map((x) => ({
        name: x.name,
        ms: spread(x.runMediansMs),
        p99Ms: p99(x.all)
      }))
      const keysetDeep = spreads[4]?.ms.median ?? Number.NaN
      const offset = spreads[6]?.ms.median ?? Number.NaN
      const worstPage = Math.max(spreads[0]?.ms.median ?? Number.NaN, spreads[1]?.ms.median ?? Number.NaN)
      const targets: Array<Target> = [{
        what: `audit page median as served (AuditLog.pageJson, first and ${depth.toLocaleString("en-US")} deep)`,
        target: "≤ 1 ms",
        value: `${fmt(spreads[0]?.ms.median ?? NaN)} / ${fmt(spreads[1]?.ms.median ?? NaN)} ms`,
        pass: Number.isNaN(worstPage) ? undefined : worstPage <= 1
      }]
      const text = [
        table(
          ["query (50 entries + 1 look-ahead row)", "ms, median of run medians [range]", "p99 ms (all queries)"],
          spreads.map((s) => [s.name, `${fmt(s.ms.median)} [${fmt(s.ms.min)}–${fmt(s.ms.max)}]`, fmt(s.p99Ms)])
        ),
        "",
        `OFFSET ÷ keyset (raw SQL, same depth): ×${fmt(offset / keysetDeep)}. Keyset plan: ${plan}. ` +
          `${b.rows.toLocaleString("en-US")} rows, ${hotRows.toLocaleString("en-US")} in the hot account, entries of ` +
          `${b.entryBytes} B; ${auditPage.runs} runs; warm page cache; ` +
          `build ${Math.round(b.buildSeconds)} s. Both AuditLog rows include Effect.runPromise and @effect/sql; ` +
          `pageJson returns the stored wire JSON (the HTTP handler writes it out as is), page also parses and decodes 50 entries.`
      ].join("\n")
      return {
        title: auditPageSection.title,
        table: text,
        results: { rows: b.rows, hotRows, depth, buildSeconds: b.buildSeconds, plan, queries: spreads },
        targets
      }
    } finally {
      raw.close()
      await runtime.dispose()
    }
  }
}
