/** `createRidequote`'s options, checked before anything starts (a bad option is an invalid request, with details). */
import { Schema } from "effect"

const NonBlank = Schema.String.pipe(Schema.pattern(/\S/, { message: () => "expected a non-empty string" }))

const sqlFields = {
  jwtSecret: Schema.optional(Schema.String.pipe(Schema.minLength(32, { message: () => "expected at least 32 characters" }))),
  auditRetentionDays: Schema.optional(Schema.Int.pipe(Schema.positive({ message: () => "expected a whole number of days ≥ 1" }))),
  keyEncryptionKey: Schema.optional(Schema.String),
  keyEncryptionKeyFile: Schema.optional(NonBlank)
}

const StorageOption = Schema.Union(
  Schema.Literal("memory"),
  Schema.Struct({ sqlite: NonBlank, ...sqlFields }),
  Schema.Struct({
    postgres: Schema.String.pipe(
      Schema.pattern(/^postgres(ql)?:\/\//, { message: () => "expected a postgres:// URL" })
    ),
    poolSize: Schema.optional(Schema.Int.pipe(Schema.between(1, 1000))),
    schema: Schema.optional(Schema.String.pipe(Schema.pattern(/^[a-z_][a-z0-9_]{0,62}$/))),
    ...sqlFields
  })
)

const MarketsOption = Schema.Union(
  Schema.Literal("shipped", "sample"),
  Schema.Struct({ models: NonBlank, fallbackToSample: Schema.optional(Schema.Boolean) })
)

const RoutesOption = Schema.Union(
  Schema.Literal("offline", "empirical"),
  Schema.Struct({
    osrm: Schema.String.pipe(Schema.pattern(/^https?:\/\/[^\s/]+/, { message: () => "expected an http(s) URL" }))
  })
)

/** The options as validated; the public `RidequoteOptions` type is the same shape in plain TypeScript. */
export const OptionsInput = Schema.Struct({
  storage: Schema.optional(StorageOption),
  markets: Schema.optional(MarketsOption),
  routes: Schema.optional(RoutesOption),
  refreshIntervalSeconds: Schema.optional(
    Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(60, { message: () => "expected at most 60 seconds" }))
  )
})
