/**
 * The server writes the hot routes' request lines directly (`requestLogLine`); they must be
 * exactly what its service logger writes for the same request through Effect's loggers.
 */
import { makeRequestLog } from "@ridequote/http/node"
import { Effect, Logger } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { requestLogLine, serviceLogger } from "../src/Logging.js"

describe("request log lines", () => {
  afterEach(() => vi.restoreAllMocks())

  it("the direct line equals the service logger's line for the same request", async () => {
    const written: Array<string> = []
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    const runtime = await Effect.runPromise(
      Effect.runtime<never>().pipe(Effect.provide(Logger.replace(Logger.defaultLogger, serviceLogger)))
    )
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123)
    const fields = { requestId: "0b9a4c7e-7a53-4f0e-9d2e-5d7f3f1b2c3d", method: "POST", route: "/v1/quote", status: 200, durationMs: 3 }
    makeRequestLog(runtime, () => at)(fields)
    makeRequestLog(runtime, () => at, requestLogLine)(fields)
    await new Promise((resolve) => setImmediate(resolve))
    const lines = written.join("").split("\n").filter((line) => line !== "")
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[1]!)).toEqual(JSON.parse(lines[0]!))
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: "request", logLevel: "INFO", annotations: fields })
  })
})
