/**
 * Audit page at depth, on each store (BENCH_AUDIT_STORES, sqlite,postgres): BENCH_AUDIT_ROWS
 * (1,000,000) audit rows in a database migrated by the project's own migrations
 * (`ridequote migrate`), rows as the project writes them (the JSON entry of a real quote, encoded
 * with core's AuditEntry schema, its request id and time filled in per row), 60 % in one hot
 * account and the rest over 1,000 accounts. Then, per query, the median of per-run medians:
 *   - `AuditLog.pageJson` through the project's layer (SqlAuditLogLive on the store's client),
 *     which is what `GET /v1/audit/recent` serves: the first page, and the page
 *     BENCH_AUDIT_DEPTH (500,000) deep via its keyset cursor;
 *   - the same at a different, random depth every query (pages not read before: what a cold
 *     cache costs);
 *   - `AuditLog.page`, the same pages decoded into records (what an embedder reads);
 *   - the same SQL on the driver directly (no decode), and LIMIT/OFFSET at that depth.
 *
 * The rows are generated inside the database by one INSERT … SELECT per chunk (a recursive CTE
 * on SQLite, generate_series on PostgreSQL), with the build's own durability off (SQLite
 * synchronous=OFF, PostgreSQL synchronous_commit=off for the loading session): ~8 s per
 * million rows on SQLite here, ~35 s on PostgreSQL, where a loop in JavaScript took minutes.
 * The table, its indexes and the page query are the real ones.
 */
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { DateTime, Layer, ManagedRuntime, Redacted, Schema } from "effect"
import type { AccountId, AuditQuery, RequestId } from "../../packages/core/src/index.js"
import { AuditEntry, AuditLog, uuidV4FromBytes } from "../../packages/core/src/index.js"
import { SqlAuditLogLive } from "../../packages/storage-sql/src/index.js"
import { PostgresClientLive } from "../../packages/storage-postgres/src/index.js"
import { SqliteClientLive } from "../../packages/storage-sqlite/src/index.js"
import { auditPage, REPO_ROOT } from "../lib/config.js"
import { ADMIN_URL, createDatabase, databaseUrl, postgresReachable, psql } from "../lib/postgres.js"
import { makeTempDir } from "../lib/procs.js"
import { migrateDatabase } from "../lib/ridequote.js"
import { log } from "../lib/rounds.js"
import type { Section, Target } from "../lib/section.js"
import Database, { type Database as Db } from "../lib/sqlite.js"
import { fmt, median, type Spread, spread, table } from "../lib/stats.js"
import { sampleAuditRecord } from "../quotes.js"

/** The few calls of node-postgres's Client the section makes. */
interface PgClient {
  connect(): Promise<void>
  query<Row>(text: string, values?: ReadonlyArray<unknown>): Promise<{ rows: Array<Row> }>
  end(): Promise<void>
}
// node-postgres, from the package that depends on it (the bench itself does not).
const Pg = createRequire(join(REPO_ROOT, "packages/storage-postgres/package.json"))("pg") as {
  Client: new(config: { connectionString: string }) => PgClient
}

const PAGE = 50
const PLACEHOLDER_ID = "00000000-0000-4000-8000-0000000000aa"
const EPOCH_ISO = "1970-01-01T00:00:00.000Z"
/** Received time of row i: BASE + i ms (every row its own millisecond, in insertion order). */
const BASE = Date.UTC(2026, 0, 1)
/** Rows per INSERT … SELECT (one transaction each). */
const CHUNK = 500_000

/** The checked decode (every refinement) AuditLog.page avoids with core's trusted decoder. */
const decodeEntries = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ entry: Schema.parseJson(AuditEntry) })))

const uuid = (): string => uuidV4FromBytes(randomBytes(16))

/** A real entry cut around its request id and time: head + id + mid + ISO time + tail. */
const entryTemplate = () => {
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
  return { head, mid, tail, bytes: template.length }
}

interface Cursor {
  readonly receivedAtMs: number
  readonly requestId: string
}

/** One store's built audit: what the queries need, on the driver and through the project's layer. */
interface Fixture {
  readonly store: string
  readonly hot: string
  readonly small: string
  readonly rows: number
  readonly buildSeconds: number
  readonly entryBytes: number
  readonly bytesOnDisk: number
  readonly client: ReturnType<typeof SqliteClientLive> | ReturnType<typeof PostgresClientLive>
  readonly cursorAt: (account: string, depth: number) => Promise<Cursor | undefined>
  readonly first: (account: string, limit: number) => Promise<Array<{ entry: string }>>
  readonly keyset: (account: string, cursor: Cursor, limit: number) => Promise<Array<{ entry: string }>>
  readonly offset: (account: string, limit: number, offset: number) => Promise<Array<{ entry: string }>>
  readonly plan: (account: string, cursor: Cursor) => Promise<string>
  readonly close: () => Promise<void>
}

// ---- SQLite ----------------------------------------------------------------------------------

const SQLITE_UUID = "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
  "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"

const openSqliteMeta = (file: string, rows: number) => {
  const db = new Database(file)
  try {
    const meta = db.prepare<{ hot: string; small: string; rows: number; entryBytes: number }>(
      "SELECT hot, small, rows, entry_bytes AS entryBytes FROM bench_meta"
    ).get()
    if (meta !== undefined && meta.rows === rows) return meta
  } catch {
    // not one of ours
  } finally {
    db.close()
  }
  throw new Error(`${file} exists but is not a bench audit file of ${rows} rows; delete it or unset BENCH_AUDIT_DB`)
}

const buildSqlite = async (file: string, rows: number) => {
  await migrateDatabase(file)
  const { bytes, head, mid, tail } = entryTemplate()
  const hot = uuid()
  const others = Array.from({ length: 1000 }, uuid)
  const db = new Database(file)
  try {
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = OFF")
    db.pragma("cache_size = -400000")
    db.exec("CREATE TEMP TABLE bench_accounts (n INTEGER PRIMARY KEY, id TEXT NOT NULL)")
    const account = db.prepare("INSERT INTO bench_accounts VALUES (?, ?)")
    others.forEach((id, n) => account.run(n, id))
    // MATERIALIZED: each row's random id is drawn once, for its column and its entry alike.
    const insert = db.prepare(
      `WITH RECURSIVE g(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM g WHERE i + 1 < ?),
        ids(i, id) AS MATERIALIZED (SELECT i, ${SQLITE_UUID} FROM g)
      INSERT INTO audit (request_id, account_id, received_at_ms, entry)
      SELECT id, CASE WHEN i % 5 < 3 THEN ? ELSE (SELECT id FROM bench_accounts WHERE n = (i / 5) % 1000) END, ? + i,
        ? || id || ? || strftime('%Y-%m-%dT%H:%M:%fZ', (? + i) / 1000.0, 'unixepoch') || ?
      FROM ids`
    )
    for (let from = 0; from < rows; from += CHUNK) {
      db.exec("BEGIN")
      insert.run(from, Math.min(rows, from + CHUNK), hot, BASE, head, mid, BASE, tail)
      db.exec("COMMIT")
      log(`audit SQLite: ${Math.min(rows, from + CHUNK).toLocaleString("en-US")} of ${rows.toLocaleString("en-US")} rows`)
      await new Promise((r) => setImmediate(r))
    }
    db.exec("CREATE TABLE bench_meta (hot TEXT, small TEXT, rows INTEGER, entry_bytes INTEGER)")
    db.prepare("INSERT INTO bench_meta VALUES (?, ?, ?, ?)").run(hot, others[0] ?? hot, rows, bytes)
    db.exec("ANALYZE")
    db.pragma("wal_checkpoint(TRUNCATE)")
  } finally {
    db.close()
  }
  return { hot, small: others[0] ?? hot, entryBytes: bytes }
}

const sqliteFixture = async (): Promise<Fixture> => {
  const rows = auditPage.rows
  const file = auditPage.keepFile ?? join(makeTempDir("audit"), "audit.db")
  const t0 = Date.now()
  const meta = auditPage.keepFile !== undefined && existsSync(file)
    ? openSqliteMeta(file, rows)
    : await buildSqlite(file, rows)
  const buildSeconds = auditPage.keepFile !== undefined && Date.now() - t0 < 1000 ? 0 : (Date.now() - t0) / 1000
  log(`audit SQLite: ${rows.toLocaleString("en-US")} rows ready (${buildSeconds === 0 ? "reused" : `built in ${Math.round(buildSeconds)} s`})`)
  const raw: Db = new Database(file)
  const size = (raw.prepare<{ n: number }>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()").get()?.n ?? 0)
  const first = raw.prepare<{ entry: string }>(
    "SELECT entry FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT ?"
  )
  const keyset = raw.prepare<{ entry: string }>(
    "SELECT entry FROM audit WHERE account_id = ? AND (received_at_ms, request_id) < (?, ?) " +
      "ORDER BY received_at_ms DESC, request_id DESC LIMIT ?"
  )
  const offset = raw.prepare<{ entry: string }>(
    "SELECT entry FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT ? OFFSET ?"
  )
  const cursor = raw.prepare<{ t: number; id: string }>(
    "SELECT received_at_ms AS t, request_id AS id FROM audit WHERE account_id = ? ORDER BY received_at_ms DESC, request_id DESC LIMIT 1 OFFSET ?"
  )
  return {
    store: "SQLite",
    ...meta,
    rows,
    buildSeconds,
    bytesOnDisk: size,
    client: SqliteClientLive(file),
    cursorAt: async (account, depth) => {
      const row = cursor.get(account, depth)
      return row === undefined ? undefined : { receivedAtMs: row.t, requestId: row.id }
    },
    first: async (account, limit) => first.all(account, limit),
    keyset: async (account, c, limit) => keyset.all(account, c.receivedAtMs, c.requestId, limit),
    offset: async (account, limit, n) => offset.all(account, limit, n),
    plan: async (account, c) =>
      raw
        .prepare<{ detail: string }>(
          "EXPLAIN QUERY PLAN SELECT entry FROM audit WHERE account_id = ? AND (received_at_ms, request_id) < (?, ?) " +
            "ORDER BY received_at_ms DESC, request_id DESC LIMIT 51"
        )
        .all(account, c.receivedAtMs, c.requestId)
        .map((r) => r.detail)
        .join("; "),
    close: async () => raw.close()
  }
}

// ---- PostgreSQL ------------------------------------------------------------------------------

const buildPostgres = async (url: string, rows: number) => {
  await migrateDatabase(url)
  const { bytes, head, mid, tail } = entryTemplate()
  const hot = uuid()
  const others = Array.from({ length: 1000 }, uuid)
  const client = new Pg.Client({ connectionString: url })
  await client.connect()
  try {
    // The build's own commits need not be durable (the database is a fixture).
    await client.query("SET synchronous_commit = off")
    await client.query("CREATE TEMP TABLE bench_accounts (n INTEGER PRIMARY KEY, id TEXT NOT NULL)")
    await client.query("INSERT INTO bench_accounts SELECT n, ($1::text[])[n + 1] FROM generate_series(0, 999) n", [others])
    for (let from = 0; from < rows; from += CHUNK) {
      // OFFSET 0 keeps the subquery whole, so each row's gen_random_uuid() is drawn once.
      await client.query(
        `INSERT INTO audit (request_id, account_id, received_at_ms, entry)
        SELECT id, CASE WHEN i % 5 < 3 THEN $3 ELSE (SELECT b.id FROM bench_accounts b WHERE b.n = (i / 5) % 1000) END, $4::bigint + i,
          $5 || id || $6 || to_char(to_timestamp(($4::bigint + i) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || $7
        FROM (SELECT i, gen_random_uuid()::text AS id FROM generate_series($1::bigint, $2::bigint - 1) AS g(i) OFFSET 0) s`,
        [from, Math.min(rows, from + CHUNK), hot, BASE, head, mid, tail]
      )
      log(`audit PostgreSQL: ${Math.min(rows, from + CHUNK).toLocaleString("en-US")} of ${rows.toLocaleString("en-US")} rows`)
    }
    await client.query("CREATE TABLE bench_meta (hot TEXT, small TEXT, rows BIGINT, entry_bytes INTEGER)")
    await client.query("INSERT INTO bench_meta VALUES ($1, $2, $3, $4)", [hot, others[0] ?? hot, rows, bytes])
    await client.query("VACUUM ANALYZE audit")
  } finally {
    await client.end()
  }
  return { hot, small: others[0] ?? hot, entryBytes: bytes }
}

const postgresFixture = async (): Promise<Fixture> => {
  const rows = auditPage.rows
  const keep = auditPage.keepPostgres
  let url: string
  let meta: { hot: string; small: string; entryBytes: number } | undefined
  const t0 = Date.now()
  if (keep !== undefined) {
    url = databaseUrl(keep)
    const exists = psql(ADMIN_URL, `SELECT count(*) FROM pg_database WHERE datname = '${keep.replace(/'/g, "")}'`) === "1"
    if (exists) {
      const out = psql(url, "SELECT hot || ' ' || small || ' ' || rows || ' ' || entry_bytes FROM bench_meta")
      const [hot, small, n, entryBytes] = out.split(" ")
      if (hot === undefined || small === undefined || Number(n) !== rows) {
        throw new Error(`database ${keep} exists but is not a bench audit of ${rows} rows; drop it or unset BENCH_AUDIT_PG_DATABASE`)
      }
      meta = { hot, small, entryBytes: Number(entryBytes) }
      log(`audit PostgreSQL: reusing database ${keep} (${rows.toLocaleString("en-US")} rows)`)
    } else {
      psql(ADMIN_URL, `CREATE DATABASE ${keep}`)
    }
  } else {
    url = createDatabase()
  }
  meta ??= await buildPostgres(url, rows)
  const buildSeconds = (Date.now() - t0) / 1000
  log(`audit PostgreSQL: ${rows.toLocaleString("en-US")} rows ready in ${Math.round(buildSeconds)} s`)
  const raw = new Pg.Client({ connectionString: url })
  await raw.connect()
  const text = (where: string, tail = "") =>
    `SELECT entry FROM audit WHERE account_id = $1${where} ORDER BY received_at_ms DESC, request_id DESC LIMIT ${tail}`
  const keysetText = text(" AND (received_at_ms, request_id) < ($2, $3)", "$4")
  return {
    store: "PostgreSQL",
    ...meta,
    rows,
    buildSeconds,
    bytesOnDisk: Number(psql(url, "SELECT pg_total_relation_size('audit')")),
    client: PostgresClientLive({ url: Redacted.make(url), poolSize: 1 }),
    cursorAt: async (account, depth) => {
      const r = await raw.query<{ t: string; id: string }>(
        "SELECT received_at_ms AS t, request_id AS id FROM audit WHERE account_id = $1 ORDER BY received_at_ms DESC, request_id DESC LIMIT 1 OFFSET $2",
        [account, depth]
      )
      const row = r.rows[0]
      return row === undefined ? undefined : { receivedAtMs: Number(row.t), requestId: row.id }
    },
    first: async (account, limit) => (await raw.query<{ entry: string }>(text("", "$2"), [account, limit])).rows,
    keyset: async (account, c, limit) =>
      (await raw.query<{ entry: string }>(keysetText, [account, c.receivedAtMs, c.requestId, limit])).rows,
    offset: async (account, limit, n) =>
      (await raw.query<{ entry: string }>(`${text("", "$2")} OFFSET $3`, [account, limit, n])).rows,
    plan: async (account, c) =>
      (await raw.query<{ "QUERY PLAN": string }>(`EXPLAIN ${keysetText}`, [account, c.receivedAtMs, c.requestId, 51])).rows
        .map((r) => r["QUERY PLAN"].trim())
        .join("; "),
    close: () => raw.end()
  }
}

// ---- the measurement -------------------------------------------------------------------------

interface QueryResult {
  readonly name: string
  readonly runMediansMs: Array<number>
  readonly all: Array<number>
}

const measure = async (f: Fixture) => {
  const hotRows = Math.floor((f.rows * 3) / 5)
  const depth = Math.min(auditPage.depth, hotRows - PAGE)
  const runtime = ManagedRuntime.make(SqlAuditLogLive().pipe(Layer.provide(f.client)))
  try {
    const audit = await runtime.runPromise(AuditLog)
    const cursor = await f.cursorAt(f.hot, depth - 1)
    if (cursor === undefined) throw new Error("no row at the requested depth")
    const q = (accountId: string, c: Cursor | undefined): AuditQuery => ({
      accountId: accountId as AccountId,
      limit: PAGE,
      ...(c === undefined ? {} : {
        after: { receivedAt: DateTime.unsafeMake(c.receivedAtMs), requestId: c.requestId as RequestId }
      })
    })
    const page = (query: AuditQuery) => runtime.runPromise(audit.page(query))
    const pageJson = (query: AuditQuery) => runtime.runPromise(audit.pageJson(query))

    // Check: the deep keyset page and OFFSET agree, and both are full pages; the served JSON
    // is the decoded page's entries.
    const deepPage = await page(q(f.hot, cursor))
    const deepJson = await pageJson(q(f.hot, cursor))
    if (JSON.stringify(deepJson.entries.map((e) => (JSON.parse(e) as { requestId: string }).requestId)) !== JSON.stringify(deepPage.entries.map((e) => e.requestId))) {
      throw new Error("pageJson and page disagree")
    }
    const offsetIds = (await f.offset(f.hot, PAGE, depth)).map((r) => (JSON.parse(r.entry) as { requestId: string }).requestId)
    const keysetIds = deepPage.entries.map((e) => e.requestId as string)
    if (keysetIds.length !== PAGE || JSON.stringify(keysetIds) !== JSON.stringify(offsetIds)) {
      throw new Error("keyset page and OFFSET page disagree")
    }
    const plan = await f.plan(f.hot, cursor)

    // Cursors at random depths of the hot account, read once each: rows are BASE + i ms apart
    // and the hot account holds i with i % 5 < 3, so a cursor is a time alone (its id sorts
    // above every id of that millisecond: "g" > any hex digit).
    const randomCursor = (): Cursor => {
      let i = Math.floor(Math.random() * (f.rows - 10 * PAGE)) + 10 * PAGE
      while (i % 5 >= 3) i--
      return { receivedAtMs: BASE + i, requestId: "g" }
    }

    const firstRows = await f.first(f.hot, PAGE + 1)
    const n = auditPage.runs >= 5 ? 200 : 100
    const queries: ReadonlyArray<{ name: string; times: number; run: () => Promise<unknown> | unknown }> = [
      { name: "AuditLog.pageJson (served by GET /v1/audit/recent), first page, hot account", times: n, run: () => pageJson(q(f.hot, undefined)) },
      { name: `AuditLog.pageJson, ${depth.toLocaleString("en-US")} deep (keyset cursor)`, times: n, run: () => pageJson(q(f.hot, cursor)) },
      { name: "AuditLog.pageJson, first page, small account", times: n, run: () => pageJson(q(f.small, undefined)) },
      { name: "AuditLog.pageJson at a random depth, a new one each query (pages not read before)", times: n, run: () => pageJson(q(f.hot, randomCursor())) },
      { name: "same SQL on the driver, first page (no decode)", times: n, run: () => f.first(f.hot, PAGE + 1) },
      { name: `same SQL on the driver, ${depth.toLocaleString("en-US")} deep (no decode)`, times: n, run: () => f.keyset(f.hot, cursor, PAGE + 1) },
      { name: "full schema decode of those 51 entries alone (parseJson(AuditEntry), for comparison)", times: n, run: () => decodeEntries(firstRows) },
      { name: `LIMIT ${PAGE + 1} OFFSET ${depth.toLocaleString("en-US")} (no decode)`, times: 3, run: () => f.offset(f.hot, PAGE + 1, depth) },
      { name: "AuditLog.page (decoded records, for embedders), first page, hot account", times: n, run: () => page(q(f.hot, undefined)) },
      { name: `AuditLog.page (decoded records), ${depth.toLocaleString("en-US")} deep`, times: n, run: () => page(q(f.hot, cursor)) }
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
      log(`audit ${f.store}: run ${r + 1}/${auditPage.runs} done`)
    }
    const p99 = (xs: ReadonlyArray<number>) => [...xs].sort((a, c) => a - c)[Math.floor(xs.length * 0.99)] ?? Number.NaN
    const spreads: Array<{ name: string; ms: Spread; p99Ms: number }> = results.map((x) => ({
      name: x.name,
      ms: spread(x.runMediansMs),
      p99Ms: p99(x.all)
    }))
    return { hotRows, depth, plan, spreads }
  } finally {
    await runtime.dispose()
  }
}

const stores = (process.env["BENCH_AUDIT_STORES"]?.trim() || "sqlite,postgres").split(",").map((s) => s.trim())

export const auditPageSection: Section = {
  id: "audit",
  title: `Audit page at ${auditPage.rows.toLocaleString("en-US")} rows (${stores.join(", ")}): keyset (the project's AuditLog.pageJson and page) vs OFFSET`,
  run: async () => {
    const texts: Array<string> = []
    const targets: Array<Target> = []
    const perStore: Record<string, unknown> = {}
    const skipped: Array<string> = []
    for (const store of stores) {
      if (store === "postgres" && !postgresReachable()) {
        skipped.push("PostgreSQL (unreachable: BENCH_POSTGRES_URL)")
        continue
      }
      const f = store === "postgres" ? await postgresFixture() : await sqliteFixture()
      try {
        const { depth, hotRows, plan, spreads } = await measure(f)
        const ms = (i: number) => spreads[i]?.ms.median ?? Number.NaN
        const worstPage = Math.max(ms(0), ms(1))
        targets.push({
          what: `${f.store}: audit page median as served (AuditLog.pageJson, first and ${depth.toLocaleString("en-US")} deep) at ${f.rows.toLocaleString("en-US")} rows`,
          target: "≤ 1 ms",
          value: `${fmt(ms(0))} / ${fmt(ms(1))} ms`,
          pass: Number.isNaN(worstPage) ? undefined : worstPage <= 1
        })
        perStore[f.store] = { rows: f.rows, hotRows, depth, buildSeconds: f.buildSeconds, bytesOnDisk: f.bytesOnDisk, plan, queries: spreads }
        texts.push(
          `### ${f.store}\n\n` +
            table(
              ["query (50 entries + 1 look-ahead row)", "ms, median of run medians [range]", "p99 ms (all queries)"],
              spreads.map((s) => [s.name, `${fmt(s.ms.median)} [${fmt(s.ms.min)}–${fmt(s.ms.max)}]`, fmt(s.p99Ms)])
            ) +
            `\n\nOFFSET ÷ keyset (raw SQL, same depth): ×${fmt(ms(7) / ms(5))}. Keyset plan: ${plan}. ` +
            `${f.rows.toLocaleString("en-US")} rows, ${hotRows.toLocaleString("en-US")} in the hot account, entries of ` +
            `${f.entryBytes} B, ${fmt(f.bytesOnDisk / f.rows)} B per row on disk; ${auditPage.runs} runs; ` +
            `${f.buildSeconds === 0 ? "reused" : `built in ${Math.round(f.buildSeconds)} s`}. Both AuditLog rows include ` +
            `Effect.runPromise and @effect/sql; pageJson returns the stored wire JSON (the HTTP handler writes it out as is), ` +
            `page also parses and decodes 50 entries. The random-depth row reads pages no earlier query read (the database's ` +
            `cache and the OS page cache decide its cost); every other row repeats one query (warm).`
        )
      } finally {
        await f.close()
      }
    }
    if (skipped.length > 0) texts.push(`Skipped: ${skipped.join(", ")}.`)
    return { title: auditPageSection.title, table: texts.join("\n\n"), results: { perStore }, targets }
  }
}
