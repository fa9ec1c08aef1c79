/**
 * Reference (b): plain `node:http` doing the work of POST /v1/quote by hand, the design the
 * perf anchors call "C-after-imm-FULL":
 * - HS256 verify of ridequote's own token with node:crypto (createHmac on a KeyObject +
 *   timingSafeEqual; alg, kid, iss, exp, revocation Set, account status checks);
 * - JSON body parse (64 KiB cap, JSON content type) and hand-written validation of the bounds;
 * - prices: 10 provider/service-level markets × 5 percentiles + 4 × 3 recommendations, in
 *   integer cents;
 * - one audit row queued and group-committed, the flush on setImmediate, each reply sent only
 *   after its row's transaction committed. The table is shaped as ridequote's audit is today
 *   (migrations 4–5: an integer key that only grows, `seq`, and the page index
 *   `(account_id, received_at_ms DESC, request_id DESC)` as the unique key, `ON CONFLICT … DO
 *   NOTHING`), so a long run grows both files alike. Until issue 34 it was keyed by the request
 *   id, a random UUID, and lost a third of its speed as its file grew (issue 23's fault, in the
 *   yardstick). With BENCH_REF_ENTRY_BYTES every entry is that many bytes (padded or cut): rows
 *   of the same bytes as ridequote's;
 * - on SQLite (BENCH_REF_DB): libsql, WAL, synchronous=FULL, one transaction per batch; on
 *   PostgreSQL (BENCH_REF_PG_URL): node-postgres (the driver ridequote's PostgreSQL storage
 *   uses), a pool of 10, one multi-row INSERT per batch (named prepared statements up to 64
 *   rows), several batches in flight, synchronous_commit as the server has it (on);
 * - JSON.stringify of the response, with what priced it (issue 17's `market` and, per
 *   provider/level key, its `offers` entry), as ridequote answers on its sample market.
 * It shares no code with the engine: it is the yardstick the sustained section measures
 * ridequote against ("the control").
 * Env: BENCH_REF_JWT_SECRET, BENCH_REF_ACCOUNT (account id), BENCH_REF_DB (SQLite file) or
 * BENCH_REF_PG_URL, BENCH_REF_ENTRY_BYTES (optional).
 */
import { createHash, createHmac, createSecretKey, randomUUID, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createRequire } from "node:module"
// Built alone, not bundled (bench/lib/references.ts): the driver is imported by name, typed
// with the benchmark's declaration of its calls.
import Libsql from "libsql"
import type { Database as Db, Options } from "../lib/sqlite.js"

const need = (name: string): string => {
  const v = process.env[name]
  if (v === undefined || v === "") throw new Error(`${name} is required`)
  return v
}

// ---- token verification ----------------------------------------------------------------------

const secret = Buffer.from(need("BENCH_REF_JWT_SECRET"), "utf8")
const key = createSecretKey(secret)
const kid = `env-${createHash("sha256").update("ridequote signing key id\0").update(secret).digest("base64url").slice(0, 22)}`
const accounts = new Map<string, { status: string }>([[need("BENCH_REF_ACCOUNT"), { status: "Active" }]])
const revoked = new Set<string>()

interface Claims {
  readonly sub: string
  readonly jti: string
}

const verify = (authorization: string | undefined): Claims | string => {
  if (authorization === undefined || !authorization.startsWith("Bearer ")) return "result:unauthorized"
  const token = authorization.slice(7)
  const dot1 = token.indexOf(".")
  const dot2 = token.indexOf(".", dot1 + 1)
  if (dot1 < 0 || dot2 < 0 || token.indexOf(".", dot2 + 1) >= 0) return "result:unauthorized"
  let header: { alg?: unknown; kid?: unknown }
  let payload: { iss?: unknown; sub?: unknown; jti?: unknown; exp?: unknown }
  try {
    header = JSON.parse(Buffer.from(token.slice(0, dot1), "base64url").toString("utf8")) as typeof header
    payload = JSON.parse(Buffer.from(token.slice(dot1 + 1, dot2), "base64url").toString("utf8")) as typeof payload
  } catch {
    return "result:unauthorized"
  }
  if (header.alg !== "HS256" || header.kid !== kid) return "result:token-invalid"
  const signature = Buffer.from(token.slice(dot2 + 1), "base64url")
  const expected = createHmac("sha256", key).update(token.slice(0, dot2), "ascii").digest()
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return "result:token-invalid"
  if (payload.iss !== "ridequote" || typeof payload.sub !== "string" || typeof payload.jti !== "string") {
    return "result:token-invalid"
  }
  if (typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now()) return "result:token-expired"
  if (revoked.has(payload.jti)) return "result:token-revoked"
  return { sub: payload.sub, jti: payload.jti }
}

// ---- request validation ----------------------------------------------------------------------

interface Point {
  readonly latitude: number
  readonly longitude: number
}
interface QuoteRequest {
  readonly pickup: Point
  readonly destination: Point
  readonly distanceKm?: number
  readonly durationMinutes?: number
  readonly scheduledAt?: string
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const inRange = (u: unknown, lo: number, hi: number, openLo = false): u is number =>
  typeof u === "number" && Number.isFinite(u) && (openLo ? u > lo : u >= lo) && u <= hi
const point = (u: unknown): Point | undefined =>
  isObject(u) && inRange(u["latitude"], -90, 90) && inRange(u["longitude"], -180, 180)
    ? { latitude: u["latitude"], longitude: u["longitude"] }
    : undefined
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** Strict ISO 8601 with a zone: 30 February is rejected, not rolled over. */
const parseTime = (s: string): number | undefined => {
  const m = ISO.exec(s)
  if (m === null) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate()
  if (mo < 1 || mo > 12 || d < 1 || d > days || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) {
    return undefined
  }
  const ms = Date.parse(s)
  return Number.isNaN(ms) ? undefined : ms
}

type Invalid = { readonly code: string; readonly message: string }

const validate = (u: unknown, now: number): { request: QuoteRequest; departMs: number } | Invalid => {
  if (!isObject(u)) return { code: "result:invalid-request", message: "body must be an object" }
  const pickup = point(u["pickup"])
  const destination = point(u["destination"])
  if (pickup === undefined || destination === undefined) {
    return { code: "result:invalid-request", message: "pickup and destination must be coordinates" }
  }
  const d = u["distanceKm"]
  const t = u["durationMinutes"]
  if ((d === undefined) !== (t === undefined)) {
    return { code: "result:route-metadata-incomplete", message: "distanceKm and durationMinutes must be sent together" }
  }
  if (d !== undefined && !inRange(d, 0, 1000, true)) return { code: "result:invalid-request", message: "distanceKm" }
  if (t !== undefined && !inRange(t, 0, 1440, true)) return { code: "result:invalid-request", message: "durationMinutes" }
  const s = u["scheduledAt"]
  let departMs = now
  if (s !== undefined) {
    const ms = typeof s === "string" ? parseTime(s) : undefined
    if (ms === undefined) return { code: "result:invalid-request", message: "scheduledAt" }
    if (ms - now > 90 * 86_400_000) return { code: "result:invalid-request", message: "scheduledAt too far ahead" }
    departMs = Math.max(now, ms)
  }
  const request: QuoteRequest = {
    pickup,
    destination,
    ...(typeof d === "number" ? { distanceKm: d } : {}),
    ...(typeof t === "number" ? { durationMinutes: t } : {}),
    ...(typeof s === "string" ? { scheduledAt: s } : {})
  }
  return { request, departMs }
}

// ---- pricing ---------------------------------------------------------------------------------

const LEVELS = ["Economy", "Standard", "Comfort", "XL"] as const
const MARKETS: ReadonlyArray<{ provider: string; level: (typeof LEVELS)[number]; base: number; perKm: number; perMin: number }> = [
  { provider: "swiftride", level: "Economy", base: 250, perKm: 75, perMin: 18 },
  { provider: "swiftride", level: "Standard", base: 320, perKm: 98, perMin: 25 },
  { provider: "swiftride", level: "Comfort", base: 450, perKm: 132, perMin: 34 },
  { provider: "swiftride", level: "XL", base: 520, perKm: 160, perMin: 40 },
  { provider: "cityhop", level: "Economy", base: 230, perKm: 68, perMin: 17 },
  { provider: "cityhop", level: "Standard", base: 300, perKm: 90, perMin: 23 },
  { provider: "cityhop", level: "XL", base: 500, perKm: 150, perMin: 38 },
  { provider: "metrocab", level: "Standard", base: 380, perKm: 108, perMin: 27 },
  { provider: "metrocab", level: "Comfort", base: 470, perKm: 135, perMin: 35 },
  { provider: "metrocab", level: "XL", base: 540, perKm: 158, perMin: 41 }
]
const SPREAD = [0.89, 0.95, 1, 1.05, 1.12] as const

const haversineKm = (a: Point, b: Point): number => {
  const r = Math.PI / 180
  const h = Math.sin(((b.latitude - a.latitude) * r) / 2) ** 2 +
    Math.cos(a.latitude * r) * Math.cos(b.latitude * r) * Math.sin(((b.longitude - a.longitude) * r) / 2) ** 2
  return 2 * 6371 * Math.asin(Math.sqrt(h))
}

const price = (request: QuoteRequest, departMs: number) => {
  const distanceKm = request.distanceKm ?? Math.max(0.1, Math.round(haversineKm(request.pickup, request.destination) * 1.3 * 10) / 10)
  const durationMinutes = request.durationMinutes ?? Math.max(1, Math.round((distanceKm / 25) * 60))
  const hour = new Date(departMs).getUTCHours()
  const surge = hour >= 7 && hour <= 9 ? 1.15 : hour >= 16 && hour <= 19 ? 1.2 : 1
  const marketPrices: Record<string, { p5: number; p25: number; p50: number; p75: number; p95: number }> = {}
  const byLevel = new Map<string, Array<ReadonlyArray<number>>>()
  for (const m of MARKETS) {
    const cents = (m.base + m.perKm * distanceKm + m.perMin * durationMinutes) * surge
    const p = SPREAD.map((f) => Math.round(cents * f))
    marketPrices[`${m.provider}/${m.level}`] = {
      p5: (p[0] ?? 0) / 100,
      p25: (p[1] ?? 0) / 100,
      p50: (p[2] ?? 0) / 100,
      p75: (p[3] ?? 0) / 100,
      p95: (p[4] ?? 0) / 100
    }
    const list = byLevel.get(m.level) ?? []
    list.push(p)
    byLevel.set(m.level, list)
  }
  const recommendations: Record<string, Array<{ price: number; label: string }>> = {}
  for (const level of LEVELS) {
    const ps = byLevel.get(level) ?? []
    const p50s = ps.map((p) => p[2] ?? 0).sort((a, b) => a - b)
    const mid = p50s[p50s.length >> 1] ?? 0
    const saver = Math.min(mid, ...ps.map((p) => p[1] ?? 0))
    const priority = Math.max(mid, ...ps.map((p) => p[3] ?? 0))
    recommendations[level] = [
      { price: saver / 100, label: "saver" },
      { price: mid / 100, label: "balanced" },
      { price: priority / 100, label: "priority" }
    ]
  }
  // What priced the quote: built per quote, as ridequote names each key's source.
  const offers: Record<string, Record<string, never>> = {}
  for (const key of Object.keys(marketPrices)) offers[key] = {}
  return { distanceKm, durationMinutes, recommendations, marketPrices, offers }
}

/** The `market` of every answer (ridequote's sample market's, byte for byte). */
const MARKET = { id: "global-sample", name: "Global sample market (sample data)", sampleData: true } as const

// ---- audit: group commit ---------------------------------------------------------------------

type Row = readonly [string, string, number, string]
interface Pending {
  readonly row: Row
  readonly done: (ok: boolean) => void
}

/**
 * An entry of exactly BENCH_REF_ENTRY_BYTES (rows of the same bytes as ridequote's): padded with a
 * `pad` field, or cut (the control's audit is never read back; only what it costs to store counts).
 * Without the variable, the entry as written. The entries are ASCII: characters are bytes.
 */
const entryBytes = Number(process.env["BENCH_REF_ENTRY_BYTES"] ?? 0)
const padded = (entry: string): string => {
  if (entryBytes <= 0) return entry
  const missing = entryBytes - entry.length - 10 // `,"pad":""`
  if (missing >= 0) return `${entry.slice(0, -1)},"pad":"${"x".repeat(missing)}"}`
  return entry.length > entryBytes ? entry.slice(0, entryBytes) : entry.padEnd(entryBytes)
}

/** Commits one batch and calls back once it is durable (or failed). */
type Committer = { readonly commit: (rows: ReadonlyArray<Pending>) => void; readonly close: () => void }

const sqliteCommitter = (file: string): Committer => {
  const db = new (Libsql as unknown as new(filename: string, options?: Options) => Db)(file)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = FULL")
  db.pragma("busy_timeout = 5000")
  db.exec(`CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY NOT NULL, request_id TEXT NOT NULL, account_id TEXT NOT NULL,
    received_at_ms BIGINT NOT NULL, entry TEXT NOT NULL)`)
  db.exec("CREATE UNIQUE INDEX IF NOT EXISTS audit_account_time ON audit (account_id, received_at_ms DESC, request_id DESC)")
  const insert = db.prepare(
    "INSERT INTO audit (request_id, account_id, received_at_ms, entry) VALUES (?, ?, ?, ?) " +
      "ON CONFLICT (account_id, received_at_ms, request_id) DO NOTHING"
  )
  const commitAll = db.transaction((rows: ReadonlyArray<Pending>) => {
    for (const p of rows) insert.run(...p.row)
  })
  return {
    commit: (rows) => {
      let ok = true
      try {
        commitAll(rows)
      } catch {
        ok = false
      }
      for (const p of rows) p.done(ok)
    },
    close: () => db.close()
  }
}

/** node-postgres, typed with the few calls used here. */
interface PgPool {
  query(config: { name?: string; text: string; values?: ReadonlyArray<unknown> }, callback: (error: Error | null) => void): void
  query(text: string): Promise<unknown>
  end(): Promise<void>
}

const postgresCommitter = async (url: string): Promise<Committer> => {
  // The driver ridequote's PostgreSQL storage depends on, from that package (not a root dependency).
  const require = createRequire(new URL("../../../packages/storage-postgres/package.json", import.meta.url))
  const pg = require("pg") as { Pool: new(options: { connectionString: string; max: number }) => PgPool }
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  await pool.query(`CREATE TABLE IF NOT EXISTS audit (
    request_id TEXT NOT NULL, account_id TEXT NOT NULL, received_at_ms BIGINT NOT NULL, entry TEXT NOT NULL,
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY)`)
  await pool.query("CREATE UNIQUE INDEX IF NOT EXISTS audit_account_time ON audit (account_id, received_at_ms DESC, request_id DESC)")
  const texts: Array<string> = []
  const textFor = (n: number): string => {
    const cached = texts[n]
    if (cached !== undefined) return cached
    const values: Array<string> = []
    for (let i = 0; i < n; i++) values.push(`($${i * 4 + 1},$${i * 4 + 2},$${i * 4 + 3},$${i * 4 + 4})`)
    const text = `INSERT INTO audit (request_id, account_id, received_at_ms, entry) VALUES ${values.join(",")} ` +
      "ON CONFLICT (account_id, received_at_ms, request_id) DO NOTHING"
    texts[n] = text
    return text
  }
  return {
    commit: (rows) => {
      const values: Array<string | number> = []
      for (const p of rows) values.push(...p.row)
      const text = textFor(rows.length)
      const config = rows.length <= 64 ? { name: `control_audit_${rows.length}`, text, values } : { text, values }
      pool.query(config, (error) => {
        for (const p of rows) p.done(error === null || error === undefined)
      })
    },
    close: () => void pool.end()
  }
}

const pgUrl = process.env["BENCH_REF_PG_URL"]
const committer: Committer = pgUrl !== undefined && pgUrl !== ""
  ? await postgresCommitter(pgUrl)
  : sqliteCommitter(need("BENCH_REF_DB"))

/** Rows per statement or transaction: a backlog is committed in several batches. */
const MAX_BATCH = pgUrl !== undefined && pgUrl !== "" ? 1000 : 5000
let queue: Array<Pending> = []
let scheduled = false
const flush = (): void => {
  scheduled = false
  while (queue.length > 0) {
    const batch = queue.length <= MAX_BATCH ? queue : queue.slice(0, MAX_BATCH)
    queue = queue.length <= MAX_BATCH ? [] : queue.slice(MAX_BATCH)
    committer.commit(batch)
  }
}
const append = (row: Row, done: Pending["done"]): void => {
  queue.push({ row, done })
  if (!scheduled) {
    scheduled = true
    setImmediate(flush)
  }
}

// ---- HTTP ------------------------------------------------------------------------------------

const send = (res: ServerResponse, status: number, requestId: string, body: unknown, extra?: Record<string, string>): void => {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "x-request-id": requestId,
    ...extra
  })
  res.end(text)
}
const fail = (res: ServerResponse, status: number, requestId: string, code: string, message: string): void => {
  send(res, status, requestId, { code, message, requestId }, status === 401 ? { "www-authenticate": 'Bearer error="invalid_token"' } : undefined)
}

const LIMIT = 64 * 1024

const handleQuote = (req: IncomingMessage, res: ServerResponse, requestId: string, receivedAt: number): void => {
  const claims = verify(req.headers.authorization)
  if (typeof claims === "string") return fail(res, 401, requestId, claims, "not authorized")
  const account = accounts.get(claims.sub)
  if (account === undefined) return fail(res, 401, requestId, "result:token-invalid", "unknown account")
  const chunks: Array<Buffer> = []
  let size = 0
  req.on("data", (c: Buffer) => {
    size += c.length
    if (size <= LIMIT) chunks.push(c)
  })
  req.on("end", () => {
    const audit = (status: number, decision: unknown, request: unknown, reply: () => void) => {
      const entry = padded(JSON.stringify({ requestId, receivedAt: new Date(receivedAt).toISOString(), request, decision }))
      append([requestId, claims.sub, receivedAt, entry], (ok) => {
        if (ok) reply()
        else fail(res, 503, requestId, "result:unavailable", "storage unavailable")
        void status
      })
    }
    const reject = (status: number, code: string, message: string, request?: unknown) =>
      audit(status, { outcome: "rejected", code, message }, request, () => fail(res, status, requestId, code, message))
    if (account.status !== "Active") return reject(403, "result:account-blocked", "account is not active")
    if (size > LIMIT) return fail(res, 413, requestId, "result:payload-too-large", "body over 64 KiB")
    if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
      return fail(res, 415, requestId, "result:unsupported-media-type", "send JSON")
    }
    let json: unknown
    try {
      json = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    } catch {
      return reject(400, "result:invalid-request", "malformed JSON")
    }
    const v = validate(json, receivedAt)
    if ("code" in v) return reject(400, v.code, v.message, json)
    const mode = v.departMs - receivedAt >= 30 * 60_000 ? "Scheduled" : "Realtime"
    const priced = price(v.request, v.departMs)
    const route = {
      source: v.request.distanceKm === undefined ? "inferred" : "supplied",
      distanceKm: priced.distanceKm,
      durationMinutes: priced.durationMinutes
    }
    const decision = {
      outcome: "quoted",
      mode,
      currency: "USD",
      market: "reference",
      route,
      behavior: "market-median",
      recommendations: priced.recommendations,
      marketPrices: priced.marketPrices
    }
    audit(200, decision, v.request, () =>
      send(res, 200, requestId, {
        requestId,
        mode,
        currency: "USD",
        distanceKm: priced.distanceKm,
        durationMinutes: priced.durationMinutes,
        recommendations: priced.recommendations,
        marketPrices: priced.marketPrices,
        market: MARKET,
        offers: priced.offers
      }))
  })
}

const server = createServer((req, res) => {
  const requestId = randomUUID()
  const receivedAt = Date.now()
  if (req.url === "/v1/quote") {
    if (req.method === "POST") return handleQuote(req, res, requestId, receivedAt)
    req.resume()
    return fail(res, 405, requestId, "result:method-not-allowed", "method not allowed")
  }
  req.resume()
  fail(res, 404, requestId, "result:not-found", "not found")
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  console.log(JSON.stringify({ event: "listening", address: `http://127.0.0.1:${port}` }))
})
const shutdown = () =>
  server.close(() => {
    flush()
    committer.close()
    setTimeout(() => process.exit(0), 200)
  })
process.on("SIGTERM", shutdown)
process.on("SIGINT", shutdown)
