/**
 * The real `ridequote` program, started as an operator starts it. THE one place that says how:
 * BENCH_SERVER_CMD, by default the compiled program as `pnpm start` runs it
 * (`node packages/server/bin/ridequote.js`, which rebuilds dist/ first if a source changed);
 * `BENCH_SERVER_CMD="node --import tsx packages/server/src/bin.ts"` measures the sources under
 * tsx instead. The same command runs the CLI (`accounts create`, `migrate`) and `serve`.
 */
import { createHash, createHmac, randomUUID } from "node:crypto"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { http, REPO_ROOT } from "./config.js"
import { pinned, runCaptured, type Spawned, spawnTracked, stop, waitForListening } from "./procs.js"

/** The compiled program, as `pnpm start` and `pnpm ridequote` exec it. */
export const COMPILED_CMD: ReadonlyArray<string> = ["node", "packages/server/bin/ridequote.js"]
/** The TypeScript sources under tsx (how the test helpers run them), for comparison. */
export const SOURCES_CMD: ReadonlyArray<string> = ["node", "--import", "tsx", "packages/server/src/bin.ts"]

export const DEFAULT_SERVER_CMD = COMPILED_CMD.join(" ")

export const serverCommand = (): ReadonlyArray<string> =>
  (process.env["BENCH_SERVER_CMD"]?.trim() || DEFAULT_SERVER_CMD).split(/\s+/)

/** Fixed, so reference (b) verifies the very tokens ridequote issues (≥ 32 bytes, HS256). */
export const JWT_SECRET = "ridequote-bench-jwt-secret-not-for-production-0123456789"

const serverEnv = { RIDEQUOTE_JWT_SECRET: JWT_SECRET }

export interface Account {
  readonly id: string
  readonly apiKey: string
  readonly apiSecret: string
}

/** `ridequote accounts create --name bench --json` on the database file. */
export const createAccount = async (database: string, name = "bench"): Promise<Account> => {
  const out = await runCaptured(
    [...serverCommand(), "accounts", "create", "--name", name, "--json", "--database", database],
    serverEnv,
    180_000
  )
  if (out.code !== 0) throw new Error(`accounts create failed (${out.code}):\n${out.stderr.slice(-2000)}`)
  const parsed = JSON.parse(out.stdout.trim()) as Partial<Account>
  if (typeof parsed.id !== "string" || typeof parsed.apiKey !== "string" || typeof parsed.apiSecret !== "string") {
    throw new Error(`accounts create printed no id/apiKey/apiSecret: ${out.stdout.slice(0, 500)}`)
  }
  return { id: parsed.id, apiKey: parsed.apiKey, apiSecret: parsed.apiSecret }
}

/** `ridequote migrate --database FILE`. */
export const migrateDatabase = async (database: string): Promise<void> => {
  const out = await runCaptured([...serverCommand(), "migrate", "--database", database], serverEnv, 180_000)
  if (out.code !== 0) throw new Error(`migrate failed (${out.code}):\n${out.stderr.slice(-2000)}`)
}

export interface Server {
  readonly name: string
  readonly url: string
  readonly pid: number
  readonly stop: () => Promise<void>
}

let serial = 0

/**
 * `command serve` on `database`, pinned to the server core, rate limit off, port 0, the sample
 * market on, with `env`; its output logged under `dir` as `<label>-<n>`. Resolves once it listens.
 */
const serve = async (
  dir: string,
  database: string,
  spec: {
    readonly label: string
    readonly command: ReadonlyArray<string>
    readonly env: Record<string, string>
    readonly extraArgs: ReadonlyArray<string>
    readonly ownSession?: boolean
  }
): Promise<Server> => {
  const n = ++serial
  const out = join(dir, `${spec.label}-${n}.out.log`)
  const err = join(dir, `${spec.label}-${n}.err.log`)
  const s: Spawned = spawnTracked(
    pinned(http.serverCpu, [
      ...spec.command,
      "serve",
      "--database",
      database,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--rate-limit",
      "0",
      "--sample-fallback",
      "on",
      ...spec.extraArgs
    ]),
    spec.env,
    out,
    err,
    spec.ownSession === undefined ? {} : { ownSession: spec.ownSession }
  )
  const url = await waitForListening(out, s, err)
  return {
    name: "ridequote",
    url,
    pid: s.pid,
    stop: async () => {
      await stop(s)
      // The request log grows ~300 B a request; keep it only on demand.
      if (process.env["BENCH_KEEP_TMP"] !== "1" && existsSync(out)) rmSync(out)
    }
  }
}

/**
 * `ridequote serve` on `database`, pinned to the server core, rate limit off, port 0, and the
 * sample market on: the bench's quote (Berlin) is priced on it, as the references (a) and (b)
 * price theirs, so figures stay comparable across versions (serve refuses uncovered places
 * by default since issue 17).
 */
export const startRidequote = (
  dir: string,
  database: string,
  extraArgs: ReadonlyArray<string> = [],
  /** `ownSession`: a scheduler autogroup of its own, to be served at once beside another (lib/paired.ts). */
  options: { readonly ownSession?: boolean } = {}
): Promise<Server> =>
  serve(dir, database, { label: "serve", command: serverCommand(), env: serverEnv, extraArgs, ...options })

/**
 * `ridequote serve` as an operator runs it by default: signing keys in the database (no
 * RIDEQUOTE_JWT_SECRET), so the minute's key reload runs as in production (issue 34: a bench
 * on a fixed key never saw what that reload did), sealed under a key-encryption key file in
 * `dir`. `probeFile`: the bench's server probe (`bench/probe/server-probe.mjs`: event-loop
 * delay, GC, heap) preloaded, writing there. Pinned to the server core, rate limit off, port 0,
 * sample market on (as `startRidequote`).
 */
export const startRidequoteStoredKeys = (
  dir: string,
  database: string,
  options: { readonly ownSession?: boolean; readonly probeFile?: string; readonly env?: Record<string, string> } = {}
): Promise<Server> => {
  const command = [...serverCommand()]
  // node [--import probe] <program>: the probe goes right after the node binary.
  if (options.probeFile !== undefined && command[0] !== undefined && /(^|\/)node$/.test(command[0])) {
    command.splice(1, 0, "--import", join(REPO_ROOT, "bench/probe/server-probe.mjs"))
  }
  return serve(dir, database, {
    label: "serve-stored",
    command,
    env: {
      RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE: join(dir, "key-encryption-key"),
      ...(options.probeFile === undefined ? {} : { BENCH_PROBE_FILE: options.probeFile }),
      ...options.env
    },
    extraArgs: [],
    ...(options.ownSession === undefined ? {} : { ownSession: options.ownSession })
  })
}

/**
 * A token for reference (b) or the control, signed here with `secret` (HS256, the kid (b) derives
 * from it, ridequote's claim set: iss, sub, jti, iat, exp): the references share no code with the
 * engine, so they do not verify ridequote's own tokens when ridequote's keys are in its database.
 */
export const mintToken = (secret: string, accountId: string, ttlSeconds = 86_400): string => {
  const bytes = Buffer.from(secret, "utf8")
  const kid = `env-${createHash("sha256").update("ridequote signing key id\0").update(bytes).digest("base64url").slice(0, 22)}`
  const iat = Math.floor(Date.now() / 1000)
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url")
  const input = `${segment({ alg: "HS256", typ: "JWT", kid })}.${
    segment({ iss: "ridequote", sub: accountId, jti: randomUUID(), iat, exp: iat + ttlSeconds })
  }`
  return `${input}.${createHmac("sha256", bytes).update(input, "ascii").digest("base64url")}`
}

/** POST /v1/auth/token with the account's key and secret. */
export const issueToken = async (url: string, account: Account): Promise<string> => {
  const res = await fetch(`${url}/v1/auth/token`, {
    method: "POST",
    headers: { "x-api-key": account.apiKey, "x-api-secret": account.apiSecret }
  })
  const body = (await res.json()) as { token?: unknown }
  if (res.status !== 200 || typeof body.token !== "string") {
    throw new Error(`token issue answered ${res.status}: ${JSON.stringify(body)}`)
  }
  return body.token
}

/** The quote request of every run: Berlin, supplied route, scheduled two hours ahead of the bench start. */
export const quoteBody = (): string =>
  JSON.stringify({
    pickup: { latitude: 52.520008, longitude: 13.404954 },
    destination: { latitude: 52.5, longitude: 13.3 },
    distanceKm: 12.4,
    durationMinutes: 27,
    scheduledAt: new Date(Date.now() + 2 * 3_600_000).toISOString()
  })

/** One POST /v1/quote, checked: the response body (its size sizes reference (a)). */
export const probeQuote = async (url: string, token: string, body: string): Promise<string> => {
  const res = await fetch(`${url}/v1/quote`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`probe quote at ${url} answered ${res.status}: ${text.slice(0, 500)}`)
  return text
}
