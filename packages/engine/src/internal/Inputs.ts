/**
 * The facade's inputs, validated with core's schemas: a value a JavaScript caller got wrong
 * (a missing field, a bad id, an out-of-range number, an unknown option) is an
 * `InvalidRequest` with one detail per problem, never a thrown TypeError from inside.
 */
import {
  AccountId,
  AccountName,
  AccountStatus,
  InvalidRequest,
  invalidRequestFromParseError,
  Jti,
  MAX_AUDIT_PAGE_SIZE,
  RequestId,
  Timestamp,
  TokenTtlSeconds
} from "@ridequote/core"
import { DateTime, Either, Schema } from "effect"

const strict = { errors: "all", onExcessProperty: "error" } as const

/** Decodes `input` with `schema`; a failure is an InvalidRequest about `what`. */
export const decodeInput = <A, I>(schema: Schema.Schema<A, I>, what: string) => {
  const decode = Schema.decodeUnknownEither(schema, strict)
  return (input: unknown): Either.Either<A, InvalidRequest> =>
    Either.mapLeft(decode(input), (error) => invalidRequestFromParseError(what, error))
}

/** `accounts.create`'s argument. */
export const NewAccountInput = Schema.Struct({
  name: AccountName,
  status: Schema.optional(AccountStatus),
  tokenTtlSeconds: Schema.optional(TokenTtlSeconds),
  defaultBehavior: Schema.optional(Schema.String)
})

export const AccountIdInput = AccountId
export const AccountStatusInput = AccountStatus
export const JtiInput = Jti

export const SetStatusOptions = Schema.Struct({ revokeTokens: Schema.optional(Schema.Boolean) })

/** `audit.page`'s and `audit.recent`'s query. */
export const AuditQueryInput = Schema.Struct({
  limit: Schema.optional(Schema.Int.pipe(Schema.between(1, MAX_AUDIT_PAGE_SIZE, {
    message: () => `expected an integer between 1 and ${MAX_AUDIT_PAGE_SIZE}`
  }))),
  after: Schema.optional(Schema.Struct({ receivedAt: Timestamp, requestId: RequestId })),
  from: Schema.optional(Timestamp),
  to: Schema.optional(Timestamp)
}).pipe(
  Schema.filter((q) =>
    q.from !== undefined && q.to !== undefined && DateTime.greaterThan(q.from, q.to)
      ? { path: ["from"], message: "from must not be after to" }
      : undefined
  )
)

/** `markets`' options: the moment whose basis to show. */
export const MarketsQueryInput = Schema.Struct({ at: Schema.optional(Timestamp) })

/** Credentials given to `tokens.issue` must at least be strings; anything else is the caller's bug. */
export const CredentialsInput = Schema.Struct({ apiKey: Schema.String, apiSecret: Schema.String })

/** An InvalidRequest about one argument that is not what the method takes. */
export const invalidArgument = (path: string, message: string): InvalidRequest =>
  new InvalidRequest({ message: `${path}: ${message}`, details: [{ path: [path], message }] })
