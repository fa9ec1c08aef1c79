/**
 * Fair connection limits (docs/security.md, "Fair connection limits"): one client address
 * holding its cap of idle sockets leaves the service to everyone else — a client on another
 * loopback address gets its quote — and its next socket is closed on arrival; without the
 * per-address cap the same sockets lock the other client out (the contrast that shows the test
 * can fail). An idle socket is closed after the headers timeout, not the whole request timeout.
 */
import { request } from "node:http"
import { connect, type Socket } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { createAccountWithCli, SAMPLE_QUOTE } from "./support/Api.js"
import { PROCESS_TEST_TIMEOUT_MS, startServe, stopAll, tempDir } from "./support/Processes.js"

const dir = tempDir("connections")
afterAll(async () => {
  await stopAll()
  dir.remove()
})

interface Answer {
  readonly status: number
  readonly body: string
}

/** One request on a connection of its own (no pool), from `localAddress`. */
const send = (base: string, path: string, headers: Record<string, string>, body: string, localAddress: string) =>
  new Promise<Answer>((resolve, reject) => {
    const url = new URL(path, base)
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...headers, connection: "close" }, localAddress, agent: false },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (c: string) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on("error", reject)
    req.end(body)
  })

/** An idle socket from 127.0.0.1, once connected; `closed` resolves when the server closes it. */
const idleSocket = (port: number) =>
  new Promise<{ socket: Socket; closed: Promise<string> }>((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: "127.0.0.1" })
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (c: string) => (received += c))
    const closed = new Promise<string>((done) => socket.on("close", () => done(received)))
    socket.on("error", () => {})
    socket.once("connect", () => resolve({ socket, closed }))
    socket.once("error", reject)
  })

/** A served instance, an account's token (issued from 127.0.0.3, so 127.0.0.1 starts with no connection). */
const serveWithToken = async (env: Record<string, string>) => {
  const database = dir.file(`${Object.values(env).join("-")}.db`)
  const served = await startServe({ RIDEQUOTE_DATABASE: database, RIDEQUOTE_RATE_LIMIT: "0", ...env })
  const account = await createAccountWithCli(database, "Fair Share")
  const issued = await send(served.url, "/v1/auth/token", { "x-api-key": account.apiKey, "x-api-secret": account.apiSecret }, "", "127.0.0.3")
  expect(issued.status, issued.body).toBe(200)
  const token = String((JSON.parse(issued.body) as { token: string }).token)
  const quoteFrom = (localAddress: string) =>
    send(served.url, "/v1/quote", { authorization: `Bearer ${token}`, "content-type": "application/json" }, JSON.stringify(SAMPLE_QUOTE), localAddress)
  return { served, port: Number(new URL(served.url).port), quoteFrom }
}

describe("connection limits", { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it("while 127.0.0.1 holds its cap of idle sockets, 127.0.0.2 gets its quote; 127.0.0.1's next socket is closed", async () => {
    const cap = 20
    const { port, quoteFrom } = await serveWithToken({
      RIDEQUOTE_MAX_CONNECTIONS: "30",
      RIDEQUOTE_MAX_CONNECTIONS_PER_ADDRESS: String(cap),
      // The held sockets must outlive the test's steps: they are idle on purpose.
      RIDEQUOTE_HEADERS_TIMEOUT: "60"
    })
    const held = await Promise.all(Array.from({ length: cap }, () => idleSocket(port)))
    // One past the cap: closed by the server before anything is read from it.
    const extra = await idleSocket(port)
    expect(await extra.closed).toBe("")
    const other = await quoteFrom("127.0.0.2")
    expect(other.status, other.body).toBe(200)
    expect(JSON.parse(other.body)).toMatchObject({ mode: "Realtime" })
    // The held sockets are still open: the cap refused only the one past it.
    expect(held.every(({ socket }) => !socket.destroyed)).toBe(true)
    for (const { socket } of held) socket.destroy()
  })

  it("contrast: without the per-address cap the same client fills every slot and 127.0.0.2 is refused", async () => {
    const total = 20
    const { port, quoteFrom } = await serveWithToken({
      RIDEQUOTE_MAX_CONNECTIONS: String(total),
      RIDEQUOTE_MAX_CONNECTIONS_PER_ADDRESS: "0",
      RIDEQUOTE_HEADERS_TIMEOUT: "60"
    })
    const held = await Promise.all(Array.from({ length: total }, () => idleSocket(port)))
    await expect(quoteFrom("127.0.0.2")).rejects.toThrow()
    for (const { socket } of held) socket.destroy()
  })

  it("an idle socket is closed with 408 after the headers timeout, well before the request timeout", async () => {
    const { port, quoteFrom } = await serveWithToken({
      RIDEQUOTE_HEADERS_TIMEOUT: "1",
      RIDEQUOTE_REQUEST_TIMEOUT: "600"
    })
    const idle = await idleSocket(port)
    const answer = await idle.closed
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer).toContain("result:request-timeout")
    // A client that sends its request at once is not affected.
    expect((await quoteFrom("127.0.0.2")).status).toBe(200)
  })
})
