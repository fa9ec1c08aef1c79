/**
 * Settings of the `ridequote` program. Every command-line flag falls back to an environment
 * variable and then to a default (flag → env → default), so the same program runs under a
 * shell, a process manager or a container without a wrapper script. The full list with
 * defaults is in docs/operations.md; keep the two in step.
 */
import * as Options from "@effect/cli/Options"
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { DEFAULT_REFRESH_INTERVAL, MAX_STALENESS } from "@ridequote/core"
// The light config module only: the HTTP stack itself loads when `serve` runs.
import { DEFAULT_RATE_LIMIT as HTTP_DEFAULT_RATE_LIMIT } from "@ridequote/http/config"

export const DEFAULT_PORT = 8080
export const DEFAULT_HOST = "127.0.0.1"
export const DEFAULT_DATABASE = "./data/ridequote.db"
/** Core's access-snapshot defaults, in whole seconds for the flag (contract §2: never over 60 s). */
export const DEFAULT_REFRESH_INTERVAL_SECONDS = Duration.toSeconds(DEFAULT_REFRESH_INTERVAL)
export const MAX_REFRESH_INTERVAL_SECONDS = Duration.toSeconds(MAX_STALENESS)
/** The HTTP adapter's default (contract §1: 200 requests/s per account, bursts of 400). */
export const DEFAULT_RATE_LIMIT = HTTP_DEFAULT_RATE_LIMIT.requestsPerSecond

/** A setting whose value cannot be used; the message names the flag and the variable. */
export class SettingInvalid extends Data.TaggedError("SettingInvalid")<{ readonly message: string }> {}

/** Where the data lives: a SQLite file, or a Postgres server (not built yet). */
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
// Flags shared by several commands

export const databaseOption = Options.text("database").pipe(
  Options.withDescription(
    `SQLite file path (created with its folder if missing) or a postgres:// URL. Default ${DEFAULT_DATABASE}.`
  ),
  Options.withDefault(DEFAULT_DATABASE),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_DATABASE"))
)

export const jsonOption = Options.boolean("json").pipe(
  Options.withDescription("Print exactly one JSON object on stdout and nothing else (logs go to stderr).")
)

// ---------------------------------------------------------------------------------------------
// serve

export const portOption = Options.integer("port").pipe(
  Options.withDescription(`TCP port to listen on (0 picks a free port). Default ${DEFAULT_PORT}.`),
  Options.withDefault(DEFAULT_PORT),
  Options.withFallbackConfig(Config.integer("RIDEQUOTE_PORT"))
)

export const hostOption = Options.text("host").pipe(
  Options.withDescription(`Interface to listen on. Default ${DEFAULT_HOST} (this machine only).`),
  Options.withDefault(DEFAULT_HOST),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_HOST"))
)

export const marketsOption = Options.directory("markets").pipe(
  Options.withDescription(
    "Folder of fitted market model files (*.json). Without it every quote is priced on the built-in sample market."
  ),
  Options.withFallbackConfig(Config.string("RIDEQUOTE_MARKETS")),
  Options.optional
)

export const sampleFallbackOption = Options.choice("sample-fallback", ["on", "off"]).pipe(
  Options.withDescription(
    "With --markets: price places none of the markets serves on the sample market (on) or answer 400 (off). Default off."
  ),
  Options.withFallbackConfig(Config.literal("on", "off")("RIDEQUOTE_SAMPLE_FALLBACK")),
  Options.withDefault("off" as const)
)

export const refreshIntervalOption = Options.integer("refresh-interval").pipe(
  Options.withDescription(
    `Seconds between reads of the shared revocation/status feed (1..${MAX_REFRESH_INTERVAL_SECONDS}). Default ${DEFAULT_REFRESH_INTERVAL_SECONDS}.`
  ),
  Options.withDefault(DEFAULT_REFRESH_INTERVAL_SECONDS),
  Options.withFallbackConfig(Config.integer("RIDEQUOTE_REFRESH_INTERVAL"))
)

export const rateLimitOption = Options.integer("rate-limit").pipe(
  Options.withDescription(
    `Requests per second per account on this instance (bursts of twice that); 0 turns it off. Default ${DEFAULT_RATE_LIMIT}.`
  ),
  Options.withDefault(DEFAULT_RATE_LIMIT),
  Options.withFallbackConfig(Config.integer("RIDEQUOTE_RATE_LIMIT"))
)

/**
 * The JWT signing secret is read from the environment only: a flag would put it in the process
 * list and the shell history. Unset means the signing keys live in the database.
 */
export const jwtSecretConfig: Config.Config<Option.Option<Redacted.Redacted<string>>> = Config.option(
  Config.redacted("RIDEQUOTE_JWT_SECRET")
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
  Number.isInteger(perSecond) && perSecond >= 0
    ? Effect.succeed(perSecond)
    : Effect.fail(
      new SettingInvalid({
        message: `--rate-limit / RIDEQUOTE_RATE_LIMIT must be a whole number ≥ 0 (0 = off), got ${perSecond}`
      })
    )

export const validatePort = (port: number): Effect.Effect<number, SettingInvalid> =>
  Number.isInteger(port) && port >= 0 && port <= 65535
    ? Effect.succeed(port)
    : Effect.fail(new SettingInvalid({ message: `--port / RIDEQUOTE_PORT must be in 0..65535, got ${port}` }))

/** Everything `serve` needs, validated. */
export interface ServeSettings {
  readonly port: number
  readonly host: string
  readonly database: DatabaseLocation
  readonly marketsDir: Option.Option<string>
  readonly sampleFallback: boolean
  readonly refreshInterval: Duration.Duration
  /** Requests per second per account; 0 = off. */
  readonly rateLimit: number
  readonly jwtSecret: Option.Option<Redacted.Redacted<string>>
}
