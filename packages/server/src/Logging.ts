/**
 * Where logs go. The service (`serve`) writes one JSON object per line to stdout, for log
 * collectors. Operator commands write human-readable logfmt to stderr, so that stdout holds
 * only the command's answer (`--json` prints exactly one JSON object there).
 *
 * Nothing here decides what is logged: the HTTP adapter logs one line per request (request
 * id, route, status, duration) and never a header, body, secret or token.
 */
import { Config, ConfigError, Effect, Either, Inspectable, Layer, LogLevel, Logger } from "effect"
import type { RequestLogFields } from "@ridequote/http/node"

/** Operator commands: logfmt on stderr. */
export const operatorLogger = Logger.withConsoleError(Logger.logfmtLogger)

/**
 * Lines written in batches: every line logged during one turn of the event loop goes out in
 * one write after it (`setImmediate`), and whatever is pending is written on exit. Writes to
 * a file or pipe block the event loop on Linux; one per request (Effect's console loggers)
 * cost ~10 % of the CPU of a quote under load (docs/performance.md).
 */
export const makeLineSink = (write: (chunk: string) => void) => {
  let pending = ""
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending === "") return
    const chunk = pending
    pending = ""
    write(chunk)
  }
  return {
    line: (text: string): void => {
      pending += `${text}\n`
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush
  }
}

const stdoutLines = makeLineSink((chunk) => void process.stdout.write(chunk))
process.once("exit", stdoutLines.flush)

/** Effect's structured fields, as JSON; `stringifyCircular` only for what JSON.stringify refuses. */
const toJson = (record: unknown): string => {
  try {
    return JSON.stringify(record)
  } catch {
    return Inspectable.stringifyCircular(record)
  }
}

/**
 * A request's line written straight to the same sink, with the fields the service logger
 * writes for `Effect.logInfo("request")` annotated with them (a test keeps the two equal).
 */
export const requestLogLine = (fields: RequestLogFields, date: Date): void =>
  // Written as text: one line per request, and building then stringifying the object was ~1 %
  // of a quote. Strings go through JSON.stringify (a caller's X-Request-Id is in there).
  stdoutLines.line(
    `{"message":"request","logLevel":"INFO","timestamp":"${date.toISOString()}","annotations":{"requestId":${
      JSON.stringify(fields.requestId)
    },"method":${JSON.stringify(fields.method)},"route":${JSON.stringify(fields.route)},"status":${
      JSON.stringify(fields.status)
    },"durationMs":${JSON.stringify(fields.durationMs)}},"spans":{},"fiberId":""}`
  )

/** The service: JSON lines on stdout (the same fields as Effect's `jsonLogger`), batched. */
export const serviceLogger = Logger.map(Logger.structuredLogger, (record) => stdoutLines.line(toJson(record)))

/** Installed for every command by the program. */
export const OperatorLogsLive: Layer.Layer<never> = Logger.replace(Logger.defaultLogger, operatorLogger)

/** Installed by `serve` on top of OperatorLogsLive. */
export const ServiceLogsLive: Layer.Layer<never> = Logger.replace(operatorLogger, serviceLogger)

/** Accepted names: Effect's labels in any case, plus `none` (= off) and `warning` (= warn), as the flag takes them. */
const LOG_LEVEL_ALIASES: Record<string, string> = { NONE: "OFF", WARNING: "WARN" }
const LOG_LEVEL_NAMES = "all, trace, debug, info, warn, error, fatal, none"

/** `RIDEQUOTE_LOG_LEVEL` (all, trace, debug, info, warn, error, fatal, none), default info. */
export const LogLevelLive = Layer.unwrapEffect(
  Config.string("RIDEQUOTE_LOG_LEVEL").pipe(
    Config.mapOrFail((text) => {
      const label = text.trim().toUpperCase()
      const level = LogLevel.allLevels.find((l) => l.label === (LOG_LEVEL_ALIASES[label] ?? label))
      return level !== undefined
        ? Either.right(level)
        : Either.left(ConfigError.InvalidData([], `RIDEQUOTE_LOG_LEVEL must be one of ${LOG_LEVEL_NAMES}, got ${JSON.stringify(text)}`))
    }),
    Config.withDefault(LogLevel.Info),
    Effect.map(Logger.minimumLogLevel)
  )
)
