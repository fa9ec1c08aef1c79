/**
 * The request's log line written without a fiber, through the loggers and minimum level of a
 * runtime: the Node host answers its hot routes outside Effect's HTTP pipeline, and running
 * `Effect.logInfo` for one line per request cost a fiber step, a FiberRefs lookup and an
 * annotations map each time. The line is the one the edge writes (same message, same five
 * annotations), so log collectors see one shape whichever lane answered.
 */
import { Cause, FiberId, FiberRef, FiberRefs, HashMap, List, LogLevel } from "effect"
import type { Runtime } from "effect"

/**
 * The five fields of a request's log line, the same on both lanes; never headers, secrets,
 * tokens or bodies.
 */
export interface RequestLogFields {
  readonly requestId: string
  readonly method: string
  readonly route: string
  readonly status: number
  readonly durationMs: number
}

/**
 * Writes a request's line directly, for a host that knows its own log format (the server's
 * JSON lines): it skips the logger pipeline's generic work (an annotations map, the
 * structured record, a circular-safe stringify), ~8 µs a line.
 */
export type RequestLogWriter = (fields: RequestLogFields, date: Date) => void

/**
 * A function that logs one answered request at Info level, or does nothing below the minimum
 * level: through `write` when given, else through the runtime's loggers.
 */
export const makeRequestLog = <R>(runtime: Runtime.Runtime<R>, nowMs: () => number, write?: RequestLogWriter) => {
  const refs = runtime.fiberRefs
  const loggers = Array.from(FiberRefs.getOrDefault(refs, FiberRef.currentLoggers))
  const minimum = FiberRefs.getOrDefault(refs, FiberRef.currentMinimumLogLevel)
  if (LogLevel.lessThan(LogLevel.Info, minimum)) return (_fields: RequestLogFields): void => {}
  if (write !== undefined) return (fields: RequestLogFields): void => write(fields, new Date(nowMs()))
  return (fields: RequestLogFields): void => {
    // Never headers, secrets, tokens or bodies: these five fields only.
    const annotations = HashMap.make(
      ["requestId", fields.requestId] as const,
      ["method", fields.method] as const,
      ["route", fields.route] as const,
      ["status", fields.status] as const,
      ["durationMs", fields.durationMs] as const
    )
    const date = new Date(nowMs())
    for (const logger of loggers) {
      logger.log({
        fiberId: FiberId.none,
        logLevel: LogLevel.Info,
        message: "request",
        cause: Cause.empty,
        context: refs,
        spans: List.empty(),
        annotations,
        date
      })
    }
  }
}
