/**
 * Load from a separate process: autocannon's CLI (`-j`: one JSON result on stdout), pinned to
 * the load core. Runs end by themselves (duration or amount).
 */
import { join } from "node:path"
import { http, REPO_ROOT } from "./config.js"
import { pinned, runCaptured } from "./procs.js"

const AUTOCANNON = join(REPO_ROOT, "node_modules/autocannon/autocannon.js")

export interface LoadSpec {
  readonly path: string
  readonly method: "GET" | "POST"
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
}

export interface LoadOptions {
  readonly connections?: number
  readonly durationS?: number
  /** Total requests instead of a duration. */
  readonly amount?: number
  /** Offered rate over all connections, requests/s. */
  readonly rate?: number
}

export interface LoadResult {
  /** Responses per second over the run (2xx + non-2xx). */
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly latencyMean: number
  readonly s2xx: number
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly durationS: number
  readonly statusCodes: Record<string, number>
}

interface AutocannonJson {
  readonly duration: number
  readonly errors: number
  readonly timeouts: number
  readonly non2xx: number
  readonly "2xx": number
  readonly latency: { readonly p50: number; readonly p99: number; readonly mean: number }
  readonly requests: { readonly total: number; readonly average: number }
  readonly statusCodeStats?: Record<string, { readonly count: number }>
}

export const runLoad = async (baseUrl: string, spec: LoadSpec, options: LoadOptions = {}): Promise<LoadResult> => {
  const args = [
    process.execPath,
    AUTOCANNON,
    "-j",
    "-n",
    "-c",
    String(options.connections ?? http.connections),
    "-m",
    spec.method,
    "-t",
    "30"
  ]
  if (options.amount !== undefined) args.push("-a", String(options.amount))
  else args.push("-d", String(options.durationS ?? http.durationS))
  if (options.rate !== undefined) args.push("-R", String(options.rate))
  for (const [k, v] of Object.entries(spec.headers)) args.push("-H", `${k}=${v}`)
  if (spec.body !== undefined) args.push("-b", spec.body)
  args.push(baseUrl + spec.path)
  const timeoutMs = options.amount !== undefined ? 3_600_000 : ((options.durationS ?? http.durationS) + 120) * 1000
  const out = await runCaptured(pinned(http.loadCpu, args), {}, timeoutMs)
  const start = out.stdout.indexOf("{")
  if (out.code !== 0 || start < 0) throw new Error(`autocannon failed (${out.code}): ${out.stderr.slice(-2000)}`)
  const j = JSON.parse(out.stdout.slice(start)) as AutocannonJson
  const statusCodes: Record<string, number> = {}
  for (const [k, v] of Object.entries(j.statusCodeStats ?? {})) statusCodes[k] = v.count
  const answered = j["2xx"] + j.non2xx
  return {
    rps: j.duration > 0 ? answered / j.duration : Number.NaN,
    p50: j.latency.p50,
    p99: j.latency.p99,
    latencyMean: j.latency.mean,
    s2xx: j["2xx"],
    non2xx: j.non2xx,
    errors: j.errors,
    timeouts: j.timeouts,
    durationS: j.duration,
    statusCodes
  }
}
