/** A customer account: who may obtain tokens and quotes, and how it is priced. */
import { Schema } from "effect"
import { AccountId, BehaviorId } from "./Ids.js"
import { Timestamp } from "./Timestamp.js"

/** Only Active accounts may issue tokens and quote; Pending and Blocked may not (403 result:account-blocked). */
export const AccountStatus = Schema.Literal("Active", "Pending", "Blocked").annotations({ identifier: "AccountStatus" })
export type AccountStatus = typeof AccountStatus.Type

/** Token lifetime of a new account unless set: 24 hours. */
export const DEFAULT_TOKEN_TTL_SECONDS = 86_400
/** The shortest token lifetime an operator may set: one minute. */
export const MIN_TOKEN_TTL_SECONDS = 60
/** 366 days: the longest token lifetime an operator may set (docs/security.md, "Bearer tokens"). */
export const MAX_TOKEN_TTL_SECONDS = 31_622_400

/** An account's token lifetime: whole seconds, MIN_TOKEN_TTL_SECONDS..MAX_TOKEN_TTL_SECONDS. */
export const TokenTtlSeconds = Schema.Int.pipe(
  Schema.between(MIN_TOKEN_TTL_SECONDS, MAX_TOKEN_TTL_SECONDS, {
    message: () => `token TTL must be an integer number of seconds in ${MIN_TOKEN_TTL_SECONDS}..${MAX_TOKEN_TTL_SECONDS}`
  })
).annotations({ identifier: "TokenTtlSeconds" })

/** An account's display name: trimmed, 1 to 200 characters. */
export const AccountName = Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
  identifier: "AccountName"
})

/** How an account's quotes are priced: the behavior behind its recommendations, and the ones priced alongside. */
export const PricingSettings = Schema.Struct({
  /** Behavior that produces a quote's `recommendations`. */
  defaultBehavior: BehaviorId,
  /** Further behaviors priced alongside the default and kept in the audit decision (shadow pricing). */
  enabledBehaviors: Schema.Array(BehaviorId)
}).annotations({ identifier: "PricingSettings" })
export type PricingSettings = typeof PricingSettings.Type

/** Also the body of `GET /v1/customer/me`. */
export const Account = Schema.Struct({
  id: AccountId,
  name: AccountName,
  status: AccountStatus,
  tokenTtlSeconds: TokenTtlSeconds,
  pricing: PricingSettings,
  createdAt: Timestamp
}).annotations({ identifier: "Account" })
export type Account = typeof Account.Type
