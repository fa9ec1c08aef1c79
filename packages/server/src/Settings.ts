/**
 * Settings of the `ridequote` program. Every command-line flag falls back to an environment
 * variable and then to a default (flag → env → default), so the same program runs under a
 * shell, a process manager or a container without a wrapper script. The full list with
 * defaults is in docs/operations.md; keep the two in step.
 */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import { Config, ConfigError, Data, Duration, Effect, Either, Option, Redacted } from "effect"
import { DEFAULT_REFRESH_INTERVAL, MAX_STALENESS } from "@ridequote/core"
import { decodeKeyEncryptionKey } from "@ridequote/storage-sql"
import type { MarketsOptions } from "@ridequote/markets"
import { parseRoutesChoice } from "@ridequote/routes"
import type { RoutesChoice } from "@ridequote/routes"
// The light config module only: the HTTP stack itself loads when `serve` runs.
import { DEFAULT_RATE_LIMIT as HTTP_DEFAULT_RATE_LIMIT, parseCorsOrigin } from "@ridequote/http/config"

export const DEFAULT_PORT = 8080
export const DEFAULT_HOST = "127.0.0.1"
export const DEFAULT_DATABASE = "./data/ridequote.db"
/**
 * Core's access-snapshot defaults, in whole seconds for the flag: a revocation or block reaches
 * every instance within 60 s at most (docs/security.md, "Revocation").
 */
export const DEFAULT_REFRESH_INTERVAL_SECONDS = Duration.toSeconds(DEFAULT_REFRESH_INTERVAL)
export const MAX_REFRESH_INTERVAL_SECONDS = Duration.toSeconds(MAX_STALENESS)
/** The HTTP adapter's default (200 requests/s per account, bursts of 400; docs/api.md, "Rate limits and sizes"). */
export const DEFAULT_RATE_LIMIT = HTTP_DEFAULT_RATE_LIMIT.requestsPerSecond

/** A request (headers and body) must arrive whole within this time; Node's own default is 300 s. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 30
/** Open connections at most; keep it below the process's file-descriptor limit (`ulimit -n`). */
export const DEFAULT_MAX_CONNECTIONS = 10_000
/** A request's headers must arrive within this time: an idle new socket is not held for the whole request timeout. */
export const DEFAULT_HEADERS_TIMEOUT_SECONDS = 10
/** Open connections from one client address at most: a tenth of the total, so one client cannot take them all. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 1_000

/** A setting whose value cannot be used; the message names the flag and the variable. */
export class SettingInvalid extends Data.TaggedError("SettingInvalid")<{ readonly message: string }> {}

/** Where the data lives: a SQLite file, or a PostgreSQL server shared by many instances. */
export type DatabaseLocation =
  | { readonly _tag: "Sqlite"; readonly filename: string }
  | { readonly _tag: "Postgres"; readonly url: Redacted.Redacted<string> }

/** A `postgres://` or `postgresql://` URL is Postgres; anything else is a SQLite file path. */
export const parseDatabaseLocation = (value: string): Effect.Effect<DatabaseLocation, SettingInvalid> => {
  const trimmed = value.trim()
  if (trimmed === "") {
    return Effect.fail(new SettingInvalid({ message: "--database / RIDEQUOTE_DATABASE must not be empty" }))
  }
  if (/^postgres(ql)?:\/\//i.test(trimmed)) {
    return Effect.succeed({ _tag: "Postgres", url: Redacted.make(trimmed) })
  }
  return Effect.succeed({ _tag: "Sqlite", filename: trimmed })
}

/** Never print a Postgres URL whole: it may carry a password. */
export const describeDatabase = (location: DatabaseLocation): string =>
  location._tag === "Sqlite" ? location.filename : "postgres://…"

// ---------------------------------------------------------------------------------------------
// How a setting is declared: a flag whose help names its environment variable, read through
// a Config whose errors name the variable and the form it expects. The help's "Default: …"
// comes from `Options.withDefault` (or the description, when the default is not a value).

/**
 * A flag's help: what it means, then the environment variable it falls back to and its default
 * (@effect/cli's own help says neither).
 */
export const settingHelp = (
  meaning: string,
  where: { readonly env?: string; readonly default?: string | number }
): string =>
  [
    meaning,
    where.env === undefined ? "" : `Environment: ${where.env}.`,
    where.default === undefined ? "" : `Default: ${where.default}.`
  ].filter((part) => part !== "").join(" ")

/** The whole number `text` spells (surrounding blanks and a sign allowed), else undefined. */
const wholeNumber = (text: string): number | undefined =>
  /^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text, 10) : undefined

/** An environment variable holding a whole number; a bad value names the variable. */
export const envInteger = (variable: string): Config.Config<number> =>
  Config.string(variable).pipe(
    Config.mapOrFail((text) => {
      const n = wholeNumber(text)
      return n !== undefined
        ? Either.right(n)
        : Either.left(ConfigError.InvalidData([], `${variable} must be a whole number, got ${JSON.stringify(text)}`))
    })
  )

/** An environment variable holding one of `values`; a bad value names the variable and lists them. */
export const envChoice = <const A extends string>(variable: string, values: ReadonlyArray<A>): Config.Config<A> =>
  Config.string(variable).pipe(
    Config.mapOrFail((text) => {
      const found = values.find((v) => v === text.trim())
      return found !== undefined
        ? Either.right(found)
        : Either.left(ConfigError.InvalidData([], `${variable} must be one of ${values.join(", ")}, got ${JSON.stringify(text)}`))
    })
  )

/** A flag taking a whole number; a bad value names the flag. */
const integerFlag = (flag: string, pseudoName: string) =>
  Options.text(flag).pipe(
    Options.withPseudoName(pseudoName),
    Options.mapEffect((text) => {
      const n = wholeNumber(text)
      return n !== undefined
        ? Effect.succeed(n)
        : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${flag} must be a whole number, got ${JSON.stringify(text)}`)))
    })
  )

/** A whole-number setting: the flag, its help (meaning, variable, default), the default, then the variable. */
const integerSetting = (setting: {
  readonly flag: string
  readonly pseudoName: string
  readonly meaning: string
  readonly env: string
  readonly default: number
}) =>
  integerFlag(setting.flag, setting.pseudoName).pipe(
    Options.withDescription(settingHelp(setting.meaning, { env: setting.env, default: setting.default })),
    Options.withDefault(setting.default),
    Options.withFallbackConfig(envInteger(setting.env))
  )

// ---------------------------------------------------------------------------------------------
// Flags shared by several commands

export const databaseOption = Options.text("database").pipe(
  Options.withPseudoName("PATH|URL"),
  Options.withDescription(
    settingHelp("SQLite file path (created with its folder if missing) or a postgres:// URL.", {
      env: "RIDEQUOTE_DATABASE",
      default: DEFAULT_DATABASE
    })
  ),
  Options.withDefault(DEFAULT_DATABASE),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_DATABASE"))
)

export const jsonOption = Options.boolean("json").pipe(
  Options.withDescription("Print exactly one JSON object on stdout and nothing else (logs go to stderr).")
)

// ---------------------------------------------------------------------------------------------
// serve

export const portOption = integerSetting({
  flag: "port",
  pseudoName: "PORT",
  meaning: "TCP port to listen on, 0..65535 (0 picks a free port).",
  env: "RIDEQUOTE_PORT",
  default: DEFAULT_PORT
})

export const hostOption = Options.text("host").pipe(
  Options.withPseudoName("HOST"),
  Options.withDescription(
    settingHelp("Interface to listen on: 127.0.0.1 is this machine only, 0.0.0.0 every interface.", {
      env: "RIDEQUOTE_HOST",
      default: DEFAULT_HOST
    })
  ),
  Options.withDefault(DEFAULT_HOST),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_HOST"))
)

export const marketsOption = Options.text("markets").pipe(
  Options.withPseudoName("DIR|none"),
  Options.withDescription(
    settingHelp("Folder of market files (*.json: fitted models and tariffs), or `none` for the built-in sample market only.", {
      env: "RIDEQUOTE_MARKETS",
      default: "the markets shipped with ridequote: NYC, Chicago and Boston fitted on trip records, and every city priced from its tariff file (`ridequote markets list` names them; docs/markets.md)"
    })
  ),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_MARKETS")),
  Options.optional
)

const SAMPLE_FALLBACK_VALUES = ["on", "off"] as const

export const sampleFallbackOption = Options.choice("sample-fallback", SAMPLE_FALLBACK_VALUES).pipe(
  Options.withDescription(
    settingHelp(
      "Price places none of the markets serves on the sample market, whose prices are invented and marked sampleData (on), or refuse them with 422 result:market-not-served naming the nearest markets (off).",
      {
        env: "RIDEQUOTE_SAMPLE_FALLBACK",
        default: "off (--markets none serves the sample market alone)"
      }
    )
  ),
  Options.withFallbackConfig(envChoice("RIDEQUOTE_SAMPLE_FALLBACK", SAMPLE_FALLBACK_VALUES)),
  Options.optional
)

const DEFAULT_ROUTES = "offline"

export const routesOption = Options.text("routes").pipe(
  Options.withPseudoName("RESOLVER"),
  Options.withDescription(
    settingHelp(
      "Route resolver for quotes without distance and duration: offline, empirical, or osrm=URL (an OSRM-compatible server; offline fallback when it is slow or down).",
      { env: "RIDEQUOTE_ROUTES", default: DEFAULT_ROUTES }
    )
  ),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_ROUTES")),
  Options.withDefault(DEFAULT_ROUTES)
)

/** `--routes` / RIDEQUOTE_ROUTES, parsed. */
export const validateRoutes = (text: string): Effect.Effect<RoutesChoice, SettingInvalid> =>
  Either.match(parseRoutesChoice(text), {
    onLeft: (message) => Effect.fail(new SettingInvalid({ message: `--routes / RIDEQUOTE_ROUTES: ${message}` })),
    onRight: Effect.succeed
  })

export const refreshIntervalOption = integerSetting({
  flag: "refresh-interval",
  pseudoName: "SECONDS",
  meaning: `Seconds between reads of the shared revocation/status feed, 1..${MAX_REFRESH_INTERVAL_SECONDS}.`,
  env: "RIDEQUOTE_REFRESH_INTERVAL",
  default: DEFAULT_REFRESH_INTERVAL_SECONDS
})

export const rateLimitOption = integerSetting({
  flag: "rate-limit",
  pseudoName: "N",
  meaning: "Requests per second per account on this instance (bursts of twice that); 0 turns it off.",
  env: "RIDEQUOTE_RATE_LIMIT",
  default: DEFAULT_RATE_LIMIT
})

export const requestTimeoutOption = integerSetting({
  flag: "request-timeout",
  pseudoName: "SECONDS",
  meaning: "Seconds for a whole request (headers and body) to arrive, else 408 and the connection is closed; 0 = no limit.",
  env: "RIDEQUOTE_REQUEST_TIMEOUT",
  default: DEFAULT_REQUEST_TIMEOUT_SECONDS
})

export const maxConnectionsOption = integerSetting({
  flag: "max-connections",
  pseudoName: "N",
  meaning: "Open connections at most; further ones are closed on arrival; 0 = no limit.",
  env: "RIDEQUOTE_MAX_CONNECTIONS",
  default: DEFAULT_MAX_CONNECTIONS
})

export const headersTimeoutOption = integerSetting({
  flag: "headers-timeout",
  pseudoName: "SECONDS",
  meaning: "Seconds for a request's headers to arrive (a new connection must start its request within it), else 408 and the connection is closed; at most the request timeout; 0 = the request timeout.",
  env: "RIDEQUOTE_HEADERS_TIMEOUT",
  default: DEFAULT_HEADERS_TIMEOUT_SECONDS
})

export const maxConnectionsPerAddressOption = integerSetting({
  flag: "max-connections-per-address",
  pseudoName: "N",
  meaning: "Open connections from one client address at most; further ones are closed on arrival; behind a proxy, at least its connection pool; 0 = no limit.",
  env: "RIDEQUOTE_MAX_CONNECTIONS_PER_ADDRESS",
  default: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS
})

export const corsOriginOption = Options.text("cors-origin").pipe(
  Options.withPseudoName("ORIGIN"),
  Options.withDescription(
    settingHelp(
      "An origin whose browser pages may call the API (CORS), e.g. https://app.example.com; * allows any. Repeat for more; the variable takes them comma-separated.",
      { env: "RIDEQUOTE_CORS_ORIGINS", default: "none (CORS off)" }
    )
  ),
  Options.repeated
)

/** `--cors-origin` (repeated) or, when none is given, RIDEQUOTE_CORS_ORIGINS (comma-separated), each checked. */
export const validateCorsOrigins = (
  flags: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<string>, SettingInvalid | ConfigError.ConfigError> =>
  Effect.gen(function*() {
    const texts = flags.length > 0
      ? flags
      : (yield* Config.withDefault(Config.string("RIDEQUOTE_CORS_ORIGINS"), "")).split(",").filter((t) => t.trim() !== "")
    const origins: Array<string> = []
    for (const text of texts) {
      const parsed = parseCorsOrigin(text)
      if (Either.isLeft(parsed)) {
        return yield* new SettingInvalid({ message: `--cors-origin / RIDEQUOTE_CORS_ORIGINS: ${parsed.left}` })
      }
      origins.push(parsed.right)
    }
    return origins
  })

/** A whole number ≥ 0 for a setting named by its flag and variable. */
export const validateCount = (flag: string, variable: string) => (n: number): Effect.Effect<number, SettingInvalid> =>
  Number.isInteger(n) && n >= 0
    ? Effect.succeed(n)
    : Effect.fail(new SettingInvalid({ message: `--${flag} / ${variable} must be a whole number ≥ 0 (0 = no limit), got ${n}` }))

/**
 * The JWT signing secret is read from the environment only: a flag would put it in the process
 * list and the shell history. Unset means the signing keys live in the database.
 */
export const jwtSecretConfig: Config.Config<Option.Option<Redacted.Redacted<string>>> = Config.option(
  Config.redacted("RIDEQUOTE_JWT_SECRET")
)

// ---------------------------------------------------------------------------------------------
// Storage settings read by every command that opens the database (environment only)

/** PostgreSQL connection pool defaults (see docs/scaling.md, "Connection budget"). */
export const DEFAULT_DB_POOL_SIZE = 10
export const DEFAULT_DB_STATEMENT_TIMEOUT_SECONDS = 5
/** Bytes of the key-encryption key (AES-256). */

export interface StorageSettings {
  /** PostgreSQL only: connections this process may hold for queries. */
  readonly poolSize: number
  /** PostgreSQL only: a statement running longer is cancelled (the request answers 503). */
  readonly statementTimeout: Duration.Duration
  /** Delete audit entries older than this many days; none: keep them all. */
  readonly auditRetentionDays: Option.Option<number>
  /** Seal stored signing keys under this AES-256 key; the previous one still opens keys until `keys rotate`. */
  readonly keyEncryption: Option.Option<{
    readonly current: Redacted.Redacted<Uint8Array>
    readonly previous: ReadonlyArray<Redacted.Redacted<Uint8Array>>
  }>
  /** Without a KEK in the environment: the file holding it (created on first use; KeyEncryptionKeyFile.ts). */
  readonly keyEncryptionKeyFile: Option.Option<string>
}

const wholeNumberIn = (variable: string, min: number, max: number) => (value: number) =>
  Number.isInteger(value) && value >= min && value <= max
    ? Effect.succeed(value)
    : Effect.fail(new SettingInvalid({ message: `${variable} must be a whole number in ${min}..${max}, got ${value}` }))

/** 32 bytes, written as base64 or base64url (e.g. `openssl rand -base64 32`). */
export const decodeKek = (variable: string) => (value: Redacted.Redacted<string>) =>
  decodeKeyEncryptionKey(variable)(value).pipe(Effect.mapError((e) => new SettingInvalid({ message: e.message })))

/**
 * Read from the environment only: the key-encryption key is a secret (a flag would show in `ps`),
 * and the others are deployment facts that every command opening the database must agree on.
 */
export const storageSettings: Effect.Effect<StorageSettings, SettingInvalid | ConfigError.ConfigError> = Effect.gen(
  function*() {
    const poolSize = yield* Effect.flatMap(
      Config.withDefault(envInteger("RIDEQUOTE_DB_POOL_SIZE"), DEFAULT_DB_POOL_SIZE),
      wholeNumberIn("RIDEQUOTE_DB_POOL_SIZE", 1, 1000)
    )
    const statementTimeout = yield* Effect.flatMap(
      Config.withDefault(envInteger("RIDEQUOTE_DB_STATEMENT_TIMEOUT"), DEFAULT_DB_STATEMENT_TIMEOUT_SECONDS),
      wholeNumberIn("RIDEQUOTE_DB_STATEMENT_TIMEOUT", 1, 600)
    )
    const retention = yield* Config.option(envInteger("RIDEQUOTE_AUDIT_RETENTION_DAYS"))
    const auditRetentionDays = Option.isSome(retention)
      ? Option.some(yield* wholeNumberIn("RIDEQUOTE_AUDIT_RETENTION_DAYS", 1, 36_600)(retention.value))
      : Option.none()
    const current = yield* Config.option(Config.redacted("RIDEQUOTE_KEY_ENCRYPTION_KEY"))
    const previous = yield* Config.option(Config.redacted("RIDEQUOTE_KEY_ENCRYPTION_KEY_PREVIOUS"))
    if (Option.isNone(current) && Option.isSome(previous)) {
      return yield* new SettingInvalid({
        message: "RIDEQUOTE_KEY_ENCRYPTION_KEY_PREVIOUS is set without RIDEQUOTE_KEY_ENCRYPTION_KEY"
      })
    }
    const keyEncryption = Option.isSome(current)
      ? Option.some({
        current: yield* decodeKek("RIDEQUOTE_KEY_ENCRYPTION_KEY")(current.value),
        previous: Option.isSome(previous)
          ? [yield* decodeKek("RIDEQUOTE_KEY_ENCRYPTION_KEY_PREVIOUS")(previous.value)]
          : []
      })
      : Option.none()
    const keyEncryptionKeyFile = Option.filter(
      yield* Config.option(Config.string("RIDEQUOTE_KEY_ENCRYPTION_KEY_FILE")),
      (path) => path.trim() !== ""
    )
    return {
      poolSize,
      statementTimeout: Duration.seconds(statementTimeout),
      auditRetentionDays,
      keyEncryption,
      keyEncryptionKeyFile
    }
  }
)

export const validateRefreshInterval = (seconds: number): Effect.Effect<Duration.Duration, SettingInvalid> =>
  Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_REFRESH_INTERVAL_SECONDS
    ? Effect.succeed(Duration.seconds(seconds))
    : Effect.fail(
      new SettingInvalid({
        message:
          `--refresh-interval / RIDEQUOTE_REFRESH_INTERVAL must be a whole number of seconds in 1..${MAX_REFRESH_INTERVAL_SECONDS}, got ${seconds}`
      })
    )

export const validateRateLimit = (perSecond: number): Effect.Effect<number, SettingInvalid> =>
  validateCount("rate-limit", "RIDEQUOTE_RATE_LIMIT")(perSecond)

export const validatePort = (port: number): Effect.Effect<number, SettingInvalid> =>
  Number.isInteger(port) && port >= 0 && port <= 65535
    ? Effect.succeed(port)
    : Effect.fail(new SettingInvalid({ message: `--port / RIDEQUOTE_PORT must be in 0..65535, got ${port}` }))

/** Everything `serve` needs, validated. */
export interface ServeSettings {
  readonly port: number
  readonly host: string
  readonly database: DatabaseLocation
  /** Which market models, and whether the sample market serves the rest (see @ridequote/markets). */
  readonly markets: MarketsOptions
  readonly routes: RoutesChoice
  readonly refreshInterval: Duration.Duration
  /** Requests per second per account; 0 = off. */
  readonly rateLimit: number
  /** Milliseconds for a whole request to arrive; 0 = no limit. */
  readonly requestTimeoutMs: number
  /** Open connections at most; 0 = no limit. */
  readonly maxConnections: number
  /** Milliseconds for a request's headers to arrive; 0 = the request timeout. */
  readonly headersTimeoutMs: number
  /** Open connections from one client address at most; 0 = no limit. */
  readonly maxConnectionsPerAddress: number
  /** Origins allowed to call from a browser (CORS); empty = CORS off. */
  readonly corsOrigins: ReadonlyArray<string>
  readonly jwtSecret: Option.Option<Redacted.Redacted<string>>
}
