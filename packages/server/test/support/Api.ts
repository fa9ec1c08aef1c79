/** Plain HTTP calls against a running `serve`, as an API client would make them. */
import { runInProcess } from "./InProcessCli.js"

export interface Reply {
  readonly status: number
  readonly body: unknown
  readonly headers: Headers
}

const call = async (url: string, init: RequestInit): Promise<Reply> => {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: keep the text, the assertion will show it
  }
  return { status: response.status, body, headers: response.headers }
}

/** A string field of a JSON object body, or undefined. */
export const field = (body: unknown, name: string): unknown =>
  typeof body === "object" && body !== null && name in body ? (body as Record<string, unknown>)[name] : undefined

export const codeOf = (reply: Reply): unknown => field(reply.body, "code")

export const issueToken = (base: string, apiKey: string, apiSecret: string) =>
  call(`${base}/v1/auth/token`, { method: "POST", headers: { "x-api-key": apiKey, "x-api-secret": apiSecret } })

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export const me = (base: string, token: string) => call(`${base}/v1/customer/me`, { headers: bearer(token) })

export const revoke = (base: string, token: string, body: object) =>
  call(`${base}/v1/auth/revoke`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify(body)
  })

/** Manhattan to JFK with the route supplied: no route resolver involved. */
export const SAMPLE_QUOTE = {
  pickup: { latitude: 40.758, longitude: -73.9855 },
  destination: { latitude: 40.6413, longitude: -73.7781 },
  distanceKm: 27.5,
  durationMinutes: 48
} as const

export const quote = (base: string, token: string, body: object = SAMPLE_QUOTE) =>
  call(`${base}/v1/quote`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify(body)
  })

export const tokenOf = (reply: Reply): string => {
  const token = field(reply.body, "token")
  if (reply.status !== 200 || typeof token !== "string") {
    throw new Error(`token issue failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  }
  return token
}

export interface CreatedAccount {
  readonly id: string
  readonly apiKey: string
  readonly apiSecret: string
}

/**
 * `ridequote accounts create --json` on `database`, the operator's command run in the test
 * process (InProcessCli.ts) beside the `serve` processes under test, which see the account
 * through the shared database as they would an operator's. In a process of its own each
 * account cost ~1.2 s of CPU; the command as a process is tested in cli-process.test.ts and
 * compiled.test.ts.
 */
export const createAccountWithCli = async (database: string, name: string): Promise<CreatedAccount> => {
  const result = await runInProcess(["accounts", "create", "--name", name, "--json"], { RIDEQUOTE_DATABASE: database })
  if (!result.ok) throw new Error(`accounts create failed: ${result.stderr}`)
  const parsed: unknown = JSON.parse(result.stdout)
  const id = field(parsed, "id"), apiKey = field(parsed, "apiKey"), apiSecret = field(parsed, "apiSecret")
  if (typeof id !== "string" || typeof apiKey !== "string" || typeof apiSecret !== "string") {
    throw new Error(`unexpected accounts create output: ${result.stdout}`)
  }
  return { id, apiKey, apiSecret }
}

/**
 * Polls `probe` until `done` holds or the deadline passes; returns the last reply. Bounded:
 * propagation is asserted within a deadline, never by sleeping a fixed time.
 */
export const pollUntil = async (
  probe: () => Promise<Reply>,
  done: (reply: Reply) => boolean,
  deadlineMs: number,
  everyMs = 100
): Promise<{ readonly reply: Reply; readonly elapsedMs: number }> => {
  const started = Date.now()
  for (;;) {
    const reply = await probe()
    const elapsedMs = Date.now() - started
    if (done(reply) || elapsedMs >= deadlineMs) return { reply, elapsedMs }
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
