/**
 * Where logs go. The service (`serve`) writes one JSON object per line to stdout, for log
 * collectors. Operator commands write human-readable logfmt to stderr, so that stdout holds
 * only the command's answer (`--json` prints exactly one JSON object there).
 *
 * Nothing here decides what is logged: the HTTP adapter logs one line per request (request
 * id, route, status, duration) and never a header, body, secret or token.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"

/** Operator commands: logfmt on stderr. */
export const operatorLogger = Logger.withConsoleError(Logger.logfmtLogger)

/** The service: JSON lines on stdout. */
export const serviceLogger = Logger.withConsoleLog(Logger.jsonLogger)

/** Installed for every command by the program. */
export const OperatorLogsLive: Layer.Layer<never> = Logger.replace(Logger.defaultLogger, operatorLogger)

/** Installed by `serve` on top of OperatorLogsLive. */
export const ServiceLogsLive: Layer.Layer<never> = Logger.replace(operatorLogger, serviceLogger)

/** `RIDEQUOTE_LOG_LEVEL` (all, trace, debug, info, warn, error, fatal, none), default info. */
export const LogLevelLive = Layer.unwrapEffect(
  Config.logLevel("RIDEQUOTE_LOG_LEVEL").pipe(
    Config.withDefault(LogLevel.Info),
    Effect.map(Logger.minimumLogLevel)
  )
)
