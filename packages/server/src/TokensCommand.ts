/**
 * `ridequote tokens revoke`: operator revocation, the same operation as `POST /v1/auth/revoke`
 * made on the customer's behalf. It is published on the access feed, so every running `serve`
 * refuses the token within its refresh interval.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Console, Data, Effect, Option, Schema } from "effect"
import { Accounts, Jti, type RevokeTarget, TokenNotFound, Tokens } from "@ridequote/core"
import { accountIdArg, parseAccountId } from "./AccountArgs.js"
import { withOperator } from "./Operator.js"
import { countOf, printJson } from "./Output.js"
import { databaseOption, jsonOption } from "./Settings.js"

/** Neither or both of --jti and --all. */
export class RevokeTargetInvalid extends Data.TaggedError("RevokeTargetInvalid")<{ readonly message: string }> {}

const targetOf = (
  jti: Option.Option<string>,
  all: boolean
): Effect.Effect<RevokeTarget, RevokeTargetInvalid | TokenNotFound> =>
  Option.match(jti, {
    onNone: () =>
      all
        ? Effect.succeed<RevokeTarget>({ _tag: "AllTokens" })
        : Effect.fail(new RevokeTargetInvalid({ message: "give either --jti JTI or --all" })),
    onSome: (raw) =>
      all
        ? Effect.fail(new RevokeTargetInvalid({ message: "give either --jti JTI or --all, not both" }))
        : Schema.decodeUnknown(Jti)(raw.trim()).pipe(
          Effect.map((jti): RevokeTarget => ({ _tag: "Token", jti })),
          Effect.mapError(() => new TokenNotFound({ message: `no token with jti ${JSON.stringify(raw)}` }))
        )
  })

const revoke = Command.make(
  "revoke",
  {
    account: accountIdArg,
    jti: Options.text("jti").pipe(
      Options.withPseudoName("JTI"),
      Options.withDescription("The id (jti claim) of the one token to revoke"),
      Options.optional
    ),
    all: Options.boolean("all").pipe(Options.withDescription("Revoke every token the account holds")),
    json: jsonOption,
    database: databaseOption
  },
  ({ account, all, database, jti, json }) =>
    Effect.gen(function*() {
      // Checked before the database is opened: a usage mistake should not need one.
      const target = yield* targetOf(jti, all)
      const accountId = yield* parseAccountId(account)
      return yield* withOperator(
        database,
        Effect.gen(function*() {
          // An unknown account is an error, not "0 revoked": the operator mistyped something.
          yield* (yield* Accounts).get(accountId)
          const result = yield* (yield* Tokens).revoke(accountId, target).pipe(
            // Core's message is written for API callers; the operator wants the ids back.
            Effect.catchTag("TokenNotFound", () =>
              Effect.fail(
                new TokenNotFound({
                  message: `no token ${target._tag === "Token" ? target.jti : ""} for account ${accountId}`
                })
              )
            )
          )
          if (json) return yield* printJson({ accountId, revoked: result.revoked })
          yield* Console.log(
            `Revoked ${countOf(result.revoked, "token")} of account ${accountId}` +
              (result.revoked === 0 && target._tag === "Token" ? " (it was already revoked)" : "") +
              "; running servers refuse them within their refresh interval."
          )
        })
      )
    })
).pipe(Command.withDescription("Revoke one token (--jti) or every token (--all) of an account"))

export const tokensCommand = Command.make("tokens").pipe(
  Command.withDescription("Operator actions on issued tokens"),
  Command.withSubcommands([revoke])
)
