/**
 * The two reference servers of bench/reference, started like ridequote: own process, server
 * core, and plain JavaScript (compiled here with esbuild, as ridequote's program is), so that
 * neither side runs under a TypeScript loader.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { buildSync } from "esbuild"
import { http, REPO_ROOT } from "./config.js"
import { pinned, spawnTracked, stop, waitForListening } from "./procs.js"
import type { Server } from "./ridequote.js"

let serial = 0

/** Compiled once per bench process: every round starts fresh servers from the same output. */
const built = new Map<string, string>()

/** bench/reference/FILE.ts as bench/reference/.build/FILE.mjs (next to the sources, so imports resolve). */
const compiled = (file: string): string => {
  const done = built.get(file)
  if (done !== undefined) return done
  const outdir = join(REPO_ROOT, "bench/reference/.build")
  mkdirSync(outdir, { recursive: true })
  const outfile = join(outdir, file.replace(/\.ts$/, ".mjs"))
  buildSync({ entryPoints: [join(REPO_ROOT, "bench/reference", file)], outfile, platform: "node", format: "esm", target: "node20", logLevel: "error" })
  built.set(file, outfile)
  return outfile
}

const start = async (
  name: string,
  file: string,
  dir: string,
  env: Record<string, string>,
  options: { readonly ownSession?: boolean; readonly probeFile?: string } = {}
): Promise<Server> => {
  const n = ++serial
  const out = join(dir, `${name}-${n}.out.log`)
  const err = join(dir, `${name}-${n}.err.log`)
  const probe = options.probeFile === undefined ? [] : ["--import", join(REPO_ROOT, "bench/probe/server-probe.mjs")]
  const s = spawnTracked(
    pinned(http.serverCpu, [process.execPath, ...probe, compiled(file)]),
    { ...env, ...(options.probeFile === undefined ? {} : { BENCH_PROBE_FILE: options.probeFile }) },
    out,
    err,
    options
  )
  const url = await waitForListening(out, s, err)
  return { name, url, pid: s.pid, stop: () => stop(s) }
}

/** (a): fixed body of `bytes` bytes. */
export const startFixed = (dir: string, bytes: number): Promise<Server> =>
  start("ref-a", "fixed.ts", dir, { BENCH_REF_BYTES: String(bytes) })

/** (b): the same work by hand, audit group-committed to `database`. */
export const startSameWork = (dir: string, database: string, jwtSecret: string, accountId: string): Promise<Server> =>
  start("ref-b", "same-work.ts", dir, {
    BENCH_REF_DB: database,
    BENCH_REF_JWT_SECRET: jwtSecret,
    BENCH_REF_ACCOUNT: accountId
  })

/**
 * The control of the sustained section: (b) on a store of its own (a SQLite file, or a PostgreSQL
 * database through node-postgres), every entry `entryBytes` long (rows of the same bytes as
 * ridequote's), in a session of its own (to be served at once beside ridequote: lib/paired.ts).
 */
export const startControl = (
  dir: string,
  store: { readonly sqlite: string } | { readonly postgres: string },
  jwtSecret: string,
  accountId: string,
  entryBytes: number
): Promise<Server> =>
  start(
    "control",
    "same-work.ts",
    dir,
    {
      ...("sqlite" in store ? { BENCH_REF_DB: store.sqlite } : { BENCH_REF_PG_URL: store.postgres }),
      BENCH_REF_JWT_SECRET: jwtSecret,
      BENCH_REF_ACCOUNT: accountId,
      BENCH_REF_ENTRY_BYTES: String(entryBytes)
    },
    { ownSession: true }
  )
