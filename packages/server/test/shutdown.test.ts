/**
 * How `serve` ends: killed outright it loses no acknowledged quote (an answer is given only after its audit entry is durable); asked to stop
 * (SIGTERM) it finishes what is in flight, flushes the audit and exits 0. A second SIGINT or
 * SIGTERM during the stop does not cut it short; a third forces the exit.
 */
import { existsSync } from "node:fs"
import { Agent, request } from "node:http"
import { connect } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { createAccountWithCli, field, issueToken, me, quote, SAMPLE_QUOTE, tokenOf } from "./support/Api.js"
import { auditedRequestIds } from "./support/Audit.js"
import { startServe, stopAll, tempDir, PROCESS_TEST_TIMEOUT_MS } from "./support/Processes.js"
import type { Served } from "./support/Processes.js"

const dir = tempDir("shutdown")
const env = (database: string) => ({ RIDEQUOTE_DATABASE: database, RIDEQUOTE_RATE_LIMIT: "0" })

afterAll(async () => {
  await stopAll()
  dir.remove()
})

describe("durability: SIGKILL in the middle of a stream of quotes", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("every quote answered 200 before the kill has its audit entry (requestId) in the database", async () => {
    const database = dir.file("kill.db")
    const served = await startServe(env(database))
    const account = await createAccountWithCli(database, "Crash Test")
    const token = tokenOf(await issueToken(served.url, account.apiKey, account.apiSecret))

    const acknowledged: Array<string> = []
    const unexpected: Array<string> = []
    let killed = false
    const worker = async () => {
      while (!killed) {
        try {
          const reply = await quote(served.url, token)
          const requestId = field(reply.body, "requestId")
          if (reply.status === 200 && typeof requestId === "string") acknowledged.push(requestId)
          else unexpected.push(`${reply.status} ${JSON.stringify(reply.body)}`)
        } catch (error) {
          // Connection errors are expected once the process is gone, and only then.
          if (!killed) unexpected.push(String(error))
          return
        }
      }
    }
    const workers = Array.from({ length: 16 }, worker)

    // Kill once a good number of quotes were acknowledged, while 16 more are in flight.
    const deadline = Date.now() + 60_000
    while (acknowledged.length < 200 && unexpected.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    killed = true
    served.child.kill("SIGKILL")
    await Promise.all(workers)
    expect((await served.exited).signal).toBe("SIGKILL")

    expect(unexpected).toEqual([])
    expect(acknowledged.length).toBeGreaterThanOrEqual(200)
    const stored = await auditedRequestIds(database, account.id)
    const missing = acknowledged.filter((id) => !stored.has(id))
    expect(missing).toEqual([])
  })
})

interface Sent {
  /** The request is fully written to the socket. */
  readonly written: Promise<void>
  readonly reply: Promise<{ readonly status: number; readonly body: unknown }>
}

/** A POST over a given agent, so it rides an already accepted keep-alive connection. */
const post = (agent: Agent, url: string, path: string, headers: Record<string, string>, body: string): Sent => {
  let onWritten: () => void = () => {}
  const written = new Promise<void>((resolve) => (onWritten = resolve))
  const reply = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(new URL(path, url), { method: "POST", agent, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => {
        let parsed: unknown = text
        try {
          parsed = JSON.parse(text)
        } catch {
          // keep the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.on("finish", onWritten)
    req.end(body)
  })
  return { written, reply }
}

describe("graceful stop: SIGTERM while requests are in flight", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("in-flight quotes complete with 200, their audit entries exist, and the process exits 0", async () => {
    const database = dir.file("term.db")
    const served = await startServe(env(database))
    const account = await createAccountWithCli(database, "Graceful Stop")
    const token = tokenOf(await issueToken(served.url, account.apiKey, account.apiSecret))

    // Open and warm up N keep-alive connections, so the quotes below travel on connections
    // the server has already accepted: they are in flight the moment they are written.
    const N = 24
    const agent = new Agent({ keepAlive: true, maxSockets: N })
    const warm = await Promise.all(
      Array.from({ length: N }, () =>
        new Promise<number>((resolve, reject) => {
          request(new URL("/v1/customer/me", served.url), { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
            res.resume()
            res.on("end", () => resolve(res.statusCode ?? 0))
          }).on("error", reject).end()
        })
      )
    )
    expect(warm.every((status) => status === 200)).toBe(true)

    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
    const sent = Array.from({ length: N }, () => post(agent, served.url, "/v1/quote", headers, JSON.stringify(SAMPLE_QUOTE)))
    await Promise.all(sent.map((s) => s.written))
    await Promise.race(sent.map((s) => s.reply))
    served.child.kill("SIGTERM")

    const replies = await Promise.all(sent.map((s) => s.reply))
    agent.destroy()
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200))
    const exit = await served.exited
    expect(exit).toEqual({ code: 0, signal: null })

    const requestIds = replies.map((r) => field(r.body, "requestId"))
    const stored = await auditedRequestIds(database, account.id)
    expect(requestIds.filter((id) => typeof id !== "string" || !stored.has(id))).toEqual([])

    // Logs are JSON lines on stdout and never carry the secret or the token.
    const lines = served.stdoutLines.filter((line) => line.trim() !== "")
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      expect(() => JSON.parse(line)).not.toThrow()
      expect(line).not.toContain(account.apiSecret)
      expect(line).not.toContain(token)
    }
    // Each request's log line carries its request id (the quote's requestId, X-Request-Id).
    const loggedIds = new Set(
      lines.map((line) => (JSON.parse(line) as { annotations?: { requestId?: unknown } }).annotations?.requestId)
    )
    expect(requestIds.filter((id) => !loggedIds.has(id))).toEqual([])
  })

  it("after SIGTERM the port no longer accepts connections", async () => {
    const database = dir.file("term2.db")
    const served = await startServe(env(database))
    expect((await fetch(`${served.url}/health/live`)).status).toBe(200)
    served.child.kill("SIGTERM")
    expect(await served.exited).toEqual({ code: 0, signal: null })
    await expect(me(served.url, "x")).rejects.toThrow()
  })
})

/**
 * A request the server has begun (its headers parsed: Node answered `100 Continue`) but whose
 * body is not finished: it holds the drain until `finish` sends the rest.
 */
const holdRequest = async (url: string) => {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  let received = ""
  const body = JSON.stringify(SAMPLE_QUOTE)
  const continued = new Promise<void>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("utf8")
      if (received.includes("100 Continue")) resolve()
    })
    socket.once("error", reject)
  })
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)))
  socket.write(
    `POST /v1/quote HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nexpect: 100-continue\r\n\r\n${body.slice(0, 10)}`
  )
  await continued
  return {
    finish: () => socket.end(body.slice(10)),
    /** Everything the server sent on the connection, once it is closed. */
    closed
  }
}

/** Resolves when `served` logs a line whose message contains `text`. */
const logged = (served: Served, text: string): Promise<void> =>
  new Promise((resolve) => {
    const check = () => {
      if (!served.stdoutLines.some((line) => messageOf(line).includes(text))) return
      served.child.stdout?.off("data", check)
      resolve()
    }
    served.child.stdout?.on("data", check)
    check()
  })

const messageOf = (line: string): string => {
  try {
    return String((JSON.parse(line) as { message?: unknown }).message)
  } catch {
    return line
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("more signals during the stop", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  // Two signals of one kind sent before the first is delivered merge into one (the kernel keeps
  // one pending signal per kind; on a loaded machine delivery can take longer than 5 ms), so the
  // close pairs are of two kinds, and a pair of one kind is timed from the first one's delivery
  // (its `stopping` line), as when pnpm forwards the terminal's Ctrl-C.
  const pairs = [
    { gapMs: 0, first: "SIGINT", second: "SIGTERM", fromDelivery: false },
    { gapMs: 5, first: "SIGTERM", second: "SIGINT", fromDelivery: false },
    { gapMs: 50, first: "SIGINT", second: "SIGINT", fromDelivery: true },
    { gapMs: 200, first: "SIGTERM", second: "SIGTERM", fromDelivery: true }
  ] as const
  for (const { first, fromDelivery, gapMs, second } of pairs) {
    it(`${first}, then ${second} ${gapMs} ms later: the drain goes on, the request in flight is answered, exit 0, no WAL left`, async () => {
      const database = dir.file(`two-signals-${gapMs}.db`)
      const served = await startServe(env(database), [], "compiled")
      const held = await holdRequest(served.url)
      served.child.kill(first)
      if (fromDelivery) await logged(served, `${first}: stopping`)
      await sleep(gapMs)
      served.child.kill(second)
      // Either may be delivered first (two pending signals arrive in signal-number order).
      await logged(served, " again: still stopping")
      held.finish()
      // Answered (401: it carries no token), not cut off.
      expect(await held.closed).toMatch(/HTTP\/1\.1 401 /)
      expect(await served.exited).toEqual({ code: 0, signal: null })
      const messages = served.stdoutLines.map(messageOf)
      expect(messages).toContain("HTTP server drained")
      expect(messages.filter((m) => m.startsWith("forced exit"))).toEqual([])
      // The database was closed cleanly: the last connection's close removes the WAL.
      expect(existsSync(`${database}-wal`)).toBe(false)
    })
  }

  it("a third signal forces the exit at once (1), with a log line, although a request is still in flight", async () => {
    const served = await startServe(env(dir.file("three-signals.db")), [], "compiled")
    const held = await holdRequest(served.url)
    served.child.kill("SIGINT")
    await logged(served, "SIGINT: stopping")
    served.child.kill("SIGINT")
    await logged(served, "SIGINT again: still stopping")
    served.child.kill("SIGTERM")
    expect(await served.exited).toEqual({ code: 1, signal: null })
    expect(served.stdoutLines.map(messageOf)).toContain(
      "forced exit: SIGTERM received a third time; what was not yet drained or flushed is lost"
    )
    // The connection ends with the process: no final answer after the `100 Continue`.
    expect(await held.closed).not.toMatch(/HTTP\/1\.1 [2-5][0-9]{2} /)
  })
})
