/**
 * `ridequote accounts …`: the operator's side of customer accounts (docs/operations.md, "Commands"). Status
 * changes, TTLs and behaviors are made here, never through the public API.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Console, Effect, Option, Redacted } from "effect"
import {
  Accounts,
  builtInBehaviors,
  DEFAULT_BEHAVIOR,
  DEFAULT_TOKEN_TTL_SECONDS,
  MAX_TOKEN_TTL_SECONDS,
  MIN_TOKEN_TTL_SECONDS
} from "@ridequote/core"
import { accountIdArg, parseAccountId, statusArg } from "./AccountArgs.js"
import { withOperator } from "./Operator.js"
import { accountTable, countOf, describeAccount, encodeAccount, printJson, SECRET_NOTICE } from "./Output.js"
import { databaseOption, jsonOption, settingHelp } from "./Settings.js"

/** The built-in pricing behaviors, for help texts (an embedder's own are not known here). */
const BEHAVIOR_IDS = builtInBehaviors.map((b) => b.id).join(", ")


const create = Command.make(
  "create",
  {
    name: Options.text("name").pipe(Options.withPseudoName("NAME"), Options.withDescription("Display name of the customer.")),
    status: Options.choice("status", ["Active", "Pending", "Blocked"]).pipe(
      Options.withDescription(settingHelp("Initial status.", { default: "Active" })),
      Options.withDefault("Active" as const)
    ),
    tokenTtl: Options.integer("token-ttl").pipe(
      Options.withPseudoName("SECONDS"),
      Options.withDescription(
        settingHelp(
          `Lifetime of the account's tokens in seconds, ${MIN_TOKEN_TTL_SECONDS}..${MAX_TOKEN_TTL_SECONDS} (366 days).`,
          { default: DEFAULT_TOKEN_TTL_SECONDS }
        )
      ),
      Options.optional
    ),
    behavior: Options.text("behavior").pipe(
      Options.withPseudoName("BEHAVIOR"),
      Options.withDescription(
        settingHelp(`Default pricing behavior (docs/pricing.md). Values: ${BEHAVIOR_IDS}.`, { default: DEFAULT_BEHAVIOR })
      ),
      Options.optional
    ),
    json: jsonOption,
    database: databaseOption
  },
  ({ behavior, database, json, name, status, tokenTtl }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const accounts = yield* Accounts
        const created = yield* accounts.create({
          name,
          status,
          tokenTtlSeconds: Option.getOrUndefined(tokenTtl),
          defaultBehavior: Option.getOrUndefined(behavior)
        })
        const apiSecret = Redacted.value(created.apiSecret)
        if (json) {
          return yield* printJson({ ...encodeAccount(created.account), apiKey: created.apiKey, apiSecret })
        }
        yield* Console.log(
          [
            `Created account ${created.account.id} (${created.account.status})`,
            describeAccount(created.account),
            "",
            `API key:    ${created.apiKey}`,
            `API secret: ${apiSecret}`,
            "",
            SECRET_NOTICE
          ].join("\n")
        )
      })
    )
).pipe(Command.withDescription("Create an account and print its id, API key and API secret (shown once)"))

const list = Command.make(
  "list",
  { json: jsonOption, database: databaseOption },
  ({ database, json }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const all = yield* (yield* Accounts).list
        if (json) return yield* printJson({ accounts: all.map(encodeAccount) })
        yield* Console.log(accountTable(all))
      })
    )
).pipe(Command.withDescription("List every account, oldest first (never prints secrets)"))

const show = Command.make(
  "show",
  { id: accountIdArg, json: jsonOption, database: databaseOption },
  ({ database, id, json }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const account = yield* (yield* Accounts).get(yield* parseAccountId(id))
        if (json) return yield* printJson(encodeAccount(account))
        yield* Console.log(describeAccount(account))
      })
    )
).pipe(Command.withDescription("Show one account (never prints its secret)"))

const setStatus = Command.make(
  "set-status",
  {
    id: accountIdArg,
    status: statusArg,
    revokeTokens: Options.boolean("revoke-tokens").pipe(
      Options.withDescription("Also revoke every token the account holds (an immediate block)")
    ),
    json: jsonOption,
    database: databaseOption
  },
  ({ database, id, json, revokeTokens, status }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const result = yield* (yield* Accounts).setStatus(yield* parseAccountId(id), status, { revokeTokens })
        if (json) return yield* printJson({ ...encodeAccount(result.account), revoked: result.revoked })
        yield* Console.log(
          `Account ${result.account.id} is now ${result.account.status}` +
            (revokeTokens ? `; ${countOf(result.revoked, "token")} revoked` : "") +
            (result.account.status === "Active"
              ? ""
              : ".\nRunning servers refuse its quotes within their refresh interval" +
                (revokeTokens ? " and its revoked tokens at once or within that interval." : "."))
        )
      })
    )
).pipe(Command.withDescription("Change an account's status; --revoke-tokens also revokes its tokens"))

const setTokenTtl = Command.make(
  "set-token-ttl",
  {
    id: accountIdArg,
    seconds: Args.integer({ name: "SECONDS" }).pipe(Args.withDescription("60..31622400 (366 days)")),
    json: jsonOption,
    database: databaseOption
  },
  ({ database, id, json, seconds }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const account = yield* (yield* Accounts).setTokenTtl(yield* parseAccountId(id), seconds)
        if (json) return yield* printJson(encodeAccount(account))
        yield* Console.log(
          `Account ${account.id}: new tokens live ${account.tokenTtlSeconds} s (tokens already issued keep their expiry)`
        )
      })
    )
).pipe(Command.withDescription("Set the lifetime of the account's future tokens"))

const enableBehavior = Command.make(
  "enable-behavior",
  {
    id: accountIdArg,
    behavior: Args.text({ name: "BEHAVIOR" }).pipe(Args.withDescription(`A behavior id: ${BEHAVIOR_IDS}`)),
    json: jsonOption,
    database: databaseOption
  },
  ({ behavior, database, id, json }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const account = yield* (yield* Accounts).enableBehavior(yield* parseAccountId(id), behavior)
        if (json) return yield* printJson(encodeAccount(account))
        yield* Console.log(`Account ${account.id}: behaviors ${account.pricing.enabledBehaviors.join(", ")} enabled`)
      })
    )
).pipe(Command.withDescription("Enable an additional pricing behavior for the account"))

const rotateSecret = Command.make(
  "rotate-secret",
  { id: accountIdArg, json: jsonOption, database: databaseOption },
  ({ database, id, json }) =>
    withOperator(
      database,
      Effect.gen(function*() {
        const accountId = yield* parseAccountId(id)
        const rotated = yield* (yield* Accounts).rotateSecret(accountId)
        const apiSecret = Redacted.value(rotated.apiSecret)
        if (json) return yield* printJson({ id: accountId, apiKey: rotated.apiKey, apiSecret })
        yield* Console.log(
          [
            `New secret for account ${accountId}; the old one stopped working.`,
            `API key:    ${rotated.apiKey}`,
            `API secret: ${apiSecret}`,
            "",
            SECRET_NOTICE
          ].join("\n")
        )
      })
    )
).pipe(Command.withDescription("Issue a new API secret (same key); the old secret stops at once"))

export const accountsCommand = Command.make("accounts").pipe(
  Command.withDescription("Create, inspect and change customer accounts"),
  Command.withSubcommands([create, list, show, setStatus, setTokenTtl, enableBehavior, rotateSecret])
)
