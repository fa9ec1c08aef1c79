/**
 * Where an engine keeps its accounts, tokens, signing keys and audit: in this process's
 * memory, in a SQLite file, or in a PostgreSQL database.
 *
 * The two database adapters are optional peer dependencies, imported only when chosen: an
 * engine in memory never loads (nor needs installed) SQLite's native module or the PostgreSQL
 * client. A choice whose adapter is not installed fails to start with StorageAdapterMissing,
 * which names the package to install.
 */
import type { AuditLog as AuditLogService, StoragePorts } from "@ridequote/core"
import { AuditLog, AuditRecord, resultCode, trustedDecoder, trustedEncoder } from "@ridequote/core"
import type { StorageUnavailable } from "@ridequote/core"
import type { Randomness } from "@ridequote/core"
import type { Duration } from "effect"
import { dirname, join } from "node:path"
import { Effect, Layer, Redacted, Schema } from "effect"

/** Options every SQL storage shares. */
export interface SqlStorageChoice {
  /**
   * One fixed HS256 signing key (at least 32 bytes) instead of the keys the database keeps.
   * Every process sharing the database must then be given the same one.
   */
  readonly jwtSecret?: string | Redacted.Redacted<string> | undefined
  /** Delete audit entries older than this many days (hourly, in small batches); absent keeps them. */
  readonly auditRetentionDays?: number | undefined
  /**
   * The key-encryption key (KEK) that seals the signing keys in the database: 32 random bytes in
   * base64, from your secret store. Without it the KEK is kept in `keyEncryptionKeyFile`. Not
   * used with `jwtSecret` (no key is then stored).
   */
  readonly keyEncryptionKey?: string | Redacted.Redacted<string> | undefined
  /**
   * The file holding the KEK when `keyEncryptionKey` is not given, created on first use with
   * owner-only permissions (0600): by default `key-encryption-key` beside the SQLite file, or
   * `./data/key-encryption-key` for PostgreSQL. Back it up apart from the database: a copy of the
   * database alone holds only sealed keys (docs/security.md, "Signing keys at rest").
   */
  readonly keyEncryptionKeyFile?: string | undefined
}

/** A SQLite file (created, with its folder, when missing; migrated on start). */
export interface SqliteChoice extends SqlStorageChoice {
  readonly sqlite: string
}

/** A PostgreSQL database, by URL (`postgres://user:password@host:5432/db`; migrated on start). */
export interface PostgresChoice extends SqlStorageChoice {
  readonly postgres: string | Redacted.Redacted<string>
  /** Connections this process may hold for queries (the change-feed listener holds one more). */
  readonly poolSize?: number | undefined
  /** Tables live in this schema (created if missing); default: the server's search_path. */
  readonly schema?: string | undefined
  /** Longest a statement may run before the server cancels it. */
  readonly statementTimeout?: Duration.DurationInput | undefined
}

/**
 * Where the engine stores its state: `"memory"` (this process only, lost at exit; the audit
 * grows with every quote, so for tests, demos and short-lived jobs), a SQLite file, or a
 * PostgreSQL URL (many processes on one database).
 */
export type StorageChoice = "memory" | SqliteChoice | PostgresChoice

/** The adapter package a storage choice needs could not be loaded (most often: not installed). */
export class StorageAdapterMissing extends Schema.TaggedError<StorageAdapterMissing>()("StorageAdapterMissing", {
  code: resultCode("result:internal"),
  message: Schema.String,
  /** The package to install, e.g. `@ridequote/storage-sqlite`. */
  adapter: Schema.String
}) {}

/** What a storage layer may fail with when it is built. */
/** Why a storage could not start: unreachable, its adapter not installed, or its key-encryption key unusable. */
export type StorageStartError = StorageUnavailable | StorageAdapterMissing | KeyEncryptionKeyRefused

/** The key-encryption key given, or the file holding it, cannot be used (the message says why). */
export class KeyEncryptionKeyRefused extends Schema.TaggedError<KeyEncryptionKeyRefused>()("KeyEncryptionKeyRefused", {
  code: resultCode("result:internal"),
  message: Schema.String
}) {}

/**
 * The package a failed import names as missing (Node's `Cannot find package 'pg' imported from …`,
 * `Cannot find module 'libsql'`), when it is a package rather than a file.
 */
export const missingPackage = (cause: unknown): string | undefined => {
  const message = cause instanceof Error ? cause.message : String(cause)
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(message)?.[1]
  return name === undefined || name.startsWith(".") || name.startsWith("/") || /^[A-Za-z]:[\\/]/.test(name) ? undefined : name
}

/**
 * Imports an adapter package; failing to (not installed, its driver not installed, or its native
 * module does not load) is StorageAdapterMissing, naming the package to install: the one the
 * failure names as missing when it names one (the adapter itself, or the driver it needs, e.g.
 * `libsql` or `pg` for `@ridequote/engine`, which carries the adapters but not the drivers),
 * else `adapter`.
 */
export const loadAdapter = <M>(adapter: string, importer: () => Promise<M>): Effect.Effect<M, StorageAdapterMissing> =>
  Effect.tryPromise({
    try: importer,
    catch: (cause) => {
      const missing = missingPackage(cause) ?? adapter
      return new StorageAdapterMissing({
        adapter: missing,
        message: `this storage needs ${missing}, which could not be loaded (install it: npm install ${missing}): ` +
          (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]
      })
    }
  })

/**
 * The adapters, imported on first use (a bundler keeps each in a chunk of its own). The SQLite
 * driver (`libsql`) is required by the adapter only when a database opens: it is resolved here,
 * so that a missing driver is reported at start as what it is.
 */
export const loadSqliteAdapter = loadAdapter("@ridequote/storage-sqlite", async () => {
  const adapter = await import("@ridequote/storage-sqlite")
  adapter.driverPath()
  return adapter
})
export const loadPostgresAdapter = loadAdapter("@ridequote/storage-postgres", () => import("@ridequote/storage-postgres"))

const redacted = (value: string | Redacted.Redacted<string>): Redacted.Redacted<string> =>
  Redacted.isRedacted(value) ? value : Redacted.make(value)

/** The functions both adapters re-export from @ridequote/storage-sql to find the KEK. */
interface KeyEncryptionSource {
  readonly decodeKeyEncryptionKey: (source: string) => (value: Redacted.Redacted<string>) => Effect.Effect<Redacted.Redacted<Uint8Array>, { readonly message: string }>
  readonly keyEncryptionKeyFromFile: (path: string) => Effect.Effect<Redacted.Redacted<Uint8Array>, { readonly message: string }>
  readonly KEY_ENCRYPTION_KEY_FILE_NAME: string
}

/**
 * The storage options shared by both adapters. Signing keys are sealed by default, as by
 * `ridequote serve`: under `keyEncryptionKey`, else under the KEK in `keyEncryptionKeyFile`
 * (default: beside the SQLite file, or ./data for PostgreSQL), created on first use.
 */
const sqlOptions = (choice: SqlStorageChoice, adapter: KeyEncryptionSource, databaseDir: string) => {
  const base = {
    jwtSecret: choice.jwtSecret === undefined ? undefined : redacted(choice.jwtSecret),
    auditRetentionDays: choice.auditRetentionDays
  }
  if (choice.jwtSecret !== undefined) return Effect.succeed({ ...base, keyEncryption: undefined })
  const kek = choice.keyEncryptionKey !== undefined
    ? adapter.decodeKeyEncryptionKey("keyEncryptionKey")(redacted(choice.keyEncryptionKey))
    : adapter.keyEncryptionKeyFromFile(choice.keyEncryptionKeyFile ?? join(databaseDir, adapter.KEY_ENCRYPTION_KEY_FILE_NAME))
  return kek.pipe(
    Effect.map((current) => ({ ...base, keyEncryption: { current, previous: [] } })),
    Effect.mapError((e) => new KeyEncryptionKeyRefused({ message: e.message }))
  )
}

/**
 * Every storage port in this process's memory (core's in-memory adapters); nothing survives the
 * process. Imported when chosen, like the database adapters: a program on SQLite or PostgreSQL
 * (the `ridequote` server among them) never loads core's testing kit.
 */
export const MemoryStorageLive: Layer.Layer<StoragePorts, never, Randomness> = Layer.unwrapEffect(
  Effect.map(
    Effect.promise(() => import("@ridequote/core/testing")),
    (kit) =>
      Layer.merge(
        kit.InMemoryStorageLive,
        Layer.effect(AuditLog, Effect.map(AuditLog, storingCopies)).pipe(Layer.provide(kit.InMemoryAuditLog))
      )
  )
)

const encodeRecord = trustedEncoder(AuditRecord)
const decodeRecord = trustedDecoder(AuditRecord)

/**
 * The in-memory audit as a database keeps it: each record stored as a copy made from its JSON,
 * so that nothing the caller holds (the quote it was answered, whose objects the record shares)
 * can change the audit afterwards. Pages are read through `pageJson` by the facade, so what a
 * reader gets is a copy too.
 */
const storingCopies = (log: AuditLogService): AuditLogService => ({
  append: (record) => Effect.suspend(() => log.append(decodeRecord(JSON.parse(JSON.stringify(encodeRecord(record)))))),
  page: log.page,
  pageJson: log.pageJson
})

/**
 * The storage ports for a choice. The SQL ones open (or create) the database and apply
 * pending migrations when the layer is built; closing the layer commits the queued audit
 * appends, then closes the connections.
 */
export const StorageLive = (choice: StorageChoice): Layer.Layer<StoragePorts, StorageStartError, Randomness> => {
  if (choice === "memory") return MemoryStorageLive
  if ("sqlite" in choice) {
    return Layer.unwrapEffect(
      Effect.gen(function*() {
        const m = yield* loadSqliteAdapter
        const options = yield* sqlOptions(choice, m, dirname(choice.sqlite))
        return m.SqliteStorageLive({ ...options, filename: choice.sqlite })
      })
    )
  }
  return Layer.unwrapEffect(
    Effect.gen(function*() {
      const m = yield* loadPostgresAdapter
      const options = yield* sqlOptions(choice, m, "data")
      return m.PostgresStorageLive({
        ...options,
        url: redacted(choice.postgres),
        poolSize: choice.poolSize,
        schema: choice.schema,
        statementTimeout: choice.statementTimeout
      })
    })
  )
}

/** A short description for logs: never the PostgreSQL URL's password. */
export const describeStorage = (choice: StorageChoice): string => {
  if (choice === "memory") return "memory"
  if ("sqlite" in choice) return `sqlite ${choice.sqlite}`
  const url = Redacted.isRedacted(choice.postgres) ? Redacted.value(choice.postgres) : choice.postgres
  return `postgres ${url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@")}`
}

