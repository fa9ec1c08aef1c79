/**
 * The `ridequote` program: one command tree for the service and the operator.
 *
 *   ridequote serve | migrate | copy | accounts … | tokens revoke | keys rotate | market fit|evaluate | backtest
 *
 * Errors: every failure is printed here once, as `ridequote: <message>` on stderr, and the
 * process exits 1; a usage mistake adds a pointer to the command's `--help`. Messages come
 * from core's typed errors, which never carry a secret or a token. Help is rendered by
 * Help.ts (wrapped to the terminal, `--help` anywhere on the line).
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import * as ValidationError from "@effect/cli/ValidationError"
import { Cause, ConfigError, Console, Data, Effect, Layer, Option } from "effect"
import { SigningKeys } from "@ridequote/core"
import { marketsSelection } from "@ridequote/markets"
import { backtestCommand, marketCommand } from "@ridequote/calibration/cli"
import { accountsCommand } from "./AccountsCommand.js"
import { asksForHelp, commandPath, helpDocText, namesOnlyAGroup, renderHelp } from "./Help.js"
import { LogLevelLive, OperatorLogsLive, ServiceLogsLive } from "./Logging.js"
import { printJson } from "./Output.js"
import {
  databaseOption,
  describeDatabase,
  hostOption,
  jsonOption,
  jwtSecretConfig,
  marketsOption,
  parseDatabaseLocation,
  portOption,
  maxConnectionsOption,
  maxConnectionsPerAddressOption,
  headersTimeoutOption,
  corsOriginOption,
  validateCorsOrigins,
  rateLimitOption,
  refreshIntervalOption,
  requestTimeoutOption,
  routesOption,
  sampleFallbackOption,
  type ServeSettings,
  validatePort,
  validateCount,
  validateRateLimit,
  validateRefreshInterval,
  validateRoutes
} from "./Settings.js"
import { migrateDatabase, StorageLive } from "./Storage.js"
import { copyCommand } from "./CopyCommand.js"
import { keysCommand } from "./KeysCommand.js"
import { marketsCommand } from "./MarketsCommand.js"
import { tokensCommand } from "./TokensCommand.js"

export const VERSION = "0.1.0"

const serveCommand = Command.make(
  "serve",
  {
    port: portOption,
    host: hostOption,
    database: databaseOption,
    markets: marketsOption,
    sampleFallback: sampleFallbackOption,
    routes: routesOption,
    refreshInterval: refreshIntervalOption,
    rateLimit: rateLimitOption,
    requestTimeout: requestTimeoutOption,
    maxConnections: maxConnectionsOption,
    headersTimeout: headersTimeoutOption,
    maxConnectionsPerAddress: maxConnectionsPerAddressOption,
    corsOrigins: corsOriginOption
  },
  (options) =>
    Effect.gen(function*() {
      const settings: ServeSettings = {
        port: yield* validatePort(options.port),
        host: options.host,
        database: yield* parseDatabaseLocation(options.database),
        markets: marketsSelection(Option.getOrUndefined(options.markets), Option.getOrUndefined(options.sampleFallback)),
        routes: yield* validateRoutes(options.routes),
        refreshInterval: yield* validateRefreshInterval(options.refreshInterval),
        rateLimit: yield* validateRateLimit(options.rateLimit),
        requestTimeoutMs: 1000 * (yield* validateCount("request-timeout", "RIDEQUOTE_REQUEST_TIMEOUT")(options.requestTimeout)),
        maxConnections: yield* validateCount("max-connections", "RIDEQUOTE_MAX_CONNECTIONS")(options.maxConnections),
        headersTimeoutMs: 1000 * (yield* validateCount("headers-timeout", "RIDEQUOTE_HEADERS_TIMEOUT")(options.headersTimeout)),
        maxConnectionsPerAddress: yield* validateCount("max-connections-per-address", "RIDEQUOTE_MAX_CONNECTIONS_PER_ADDRESS")(
          options.maxConnectionsPerAddress
        ),
        corsOrigins: yield* validateCorsOrigins(options.corsOrigins),
        jwtSecret: yield* jwtSecretConfig
      }
      // Loaded on demand: the HTTP stack is the slowest part of startup and the operator
      // commands do not need it.
      const { serve } = yield* Effect.promise(() => import("./Serve.js"))
      return yield* serve(settings).pipe(Effect.provide(ServiceLogsLive))
    })
).pipe(
  Command.withDescription(
    "Run the HTTP service until SIGTERM/SIGINT (then finish in-flight requests, flush the audit, exit 0)"
  )
)

const migrateCommand = Command.make(
  "migrate",
  { database: databaseOption, json: jsonOption },
  ({ database, json }) =>
    Effect.gen(function*() {
      const location = yield* parseDatabaseLocation(database)
      yield* migrateDatabase(location)
      // Opening the storage loads the signing keys, which seals any still stored in plain (a
      // database from before keys were sealed by default) under the key-encryption key.
      yield* Effect.provide(SigningKeys, StorageLive(location, yield* jwtSecretConfig))
      if (json) return yield* printJson({ database: describeDatabase(location), upToDate: true })
      yield* Console.log(`Database ${describeDatabase(location)} is up to date.`)
    })
).pipe(Command.withDescription("Bring the database schema up to date (serve also does this on start)"))

export const ridequoteCommand = Command.make("ridequote").pipe(
  Command.withDescription("Ride quote pricing service: run it, and operate its accounts and tokens"),
  Command.withSubcommands([
    serveCommand,
    migrateCommand,
    copyCommand,
    accountsCommand,
    tokensCommand,
    keysCommand,
    marketsCommand,
    marketCommand,
    backtestCommand
  ])
)

const cli = Command.run(ridequoteCommand, { name: "ridequote", version: VERSION })

/**
 * A mistake on the command line (unknown option, missing or malformed value, bad environment
 * value): printed as `ridequote: <what>` on stderr with a pointer to the command's help.
 */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string; readonly command: string }> {}

/** @effect/cli's wording of a bad environment value, made to start with the variable's name. */
const usageMessage = (text: string): string => {
  const config = /^\(?Invalid data at ([A-Za-z0-9_]+): "(.*)"\)?$/s.exec(text.trim())
  if (config === null) return text.trim()
  const [, variable = "", detail = ""] = config
  return detail.startsWith(variable) ? detail : `${variable}: ${detail}`
}

/**
 * Parses the command line before @effect/cli runs it, so that a usage mistake is reported by
 * us (`ridequote: …`, on stderr, exit 1) and not printed by @effect/cli in its own words.
 * Built-in options (--version, --log-level, --completions) are left to @effect/cli.
 */
const checkUsage = (args: ReadonlyArray<string>) =>
  Descriptor.parse(ridequoteCommand.descriptor, ["ridequote", ...args], CliConfig.defaultConfig).pipe(
    Effect.flatMap((directive) => {
      if (directive._tag === "UserDefined" && directive.leftover.length > 0) {
        return Effect.fail(`unknown argument '${directive.leftover[0]}'`)
      }
      return Effect.void
    }),
    Effect.catchIf(ValidationError.isValidationError, (e) => Effect.fail(usageMessage(helpDocText(e.error)))),
    Effect.mapError((message) =>
      new UsageError({ message, command: ["ridequote", ...commandPath(ridequoteCommand.descriptor, args).names].join(" ") })
    )
  )

/** A failure's message for an operator: its own message, or that of its cause. */
export const describeFailure = (error: unknown): string => {
  // A bad environment value: the variable first, then what it must be.
  if (ConfigError.isConfigError(error)) return usageMessage(String(error))
  if (typeof error === "object" && error !== null) {
    const message = "message" in error && typeof error.message === "string" ? error.message : ""
    if (message !== "") return message
    if ("cause" in error && error.cause !== undefined && error.cause !== error) return describeFailure(error.cause)
    if ("_tag" in error && typeof error._tag === "string") return error._tag
  }
  return String(error)
}

/** Prints a failure once on stderr; usage errors point to the command's help. */
const reportFailure = <E>(cause: Cause.Cause<E>): Effect.Effect<void> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.void
  const failures = Array.from(Cause.failures(cause)).filter((e) => !ValidationError.isValidationError(e))
  const defects = Array.from(Cause.defects(cause))
  return Effect.forEach(
    failures,
    (e) =>
      e instanceof UsageError
        ? Console.error(`ridequote: ${e.message.split("\n").join("\n  ")}\nRun '${e.command} --help' for usage.`)
        : Console.error(`ridequote: ${describeFailure(e)}`),
    { discard: true }
  ).pipe(
    Effect.zipRight(
      Effect.forEach(defects, (d) => Console.error(`ridequote: internal error: ${describeFailure(d)}`), {
        discard: true
      })
    )
  )
}

/** Runs the program on `process.argv`-shaped arguments; fails (exit 1) on any error. */
/**
 * argv without the `--` that package scripts pass on: `pnpm start -- --port 8080` runs
 * `ridequote serve -- --port 8080`. Only a `--` among the leading command words is dropped
 * (no option takes `--` as its value there, and no command takes free arguments after it).
 */
export const withoutScriptSeparator = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const at = argv.indexOf("--", 2)
  if (at < 0 || argv.slice(2, at).some((word) => word.startsWith("-"))) return argv
  return [...argv.slice(0, at), ...argv.slice(at + 1)]
}

export const runRidequote = (rawArgv: ReadonlyArray<string>) => {
  const argv = withoutScriptSeparator(rawArgv)
  const args = argv.slice(2)
  const program = asksForHelp(args) || namesOnlyAGroup(ridequoteCommand.descriptor, args)
    ? Console.log(renderHelp(ridequoteCommand.descriptor, "ridequote", VERSION, args).trimEnd())
    : Effect.zipRight(checkUsage(args), cli(argv))
  return program.pipe(
    Effect.provide(Layer.merge(OperatorLogsLive, LogLevelLive)),
    Effect.tapErrorCause(reportFailure)
  )
}
