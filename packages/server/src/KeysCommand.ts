/**
 * `ridequote keys rotate`: a new current token-signing key in the database. The previous key
 * keeps verifying until every token it signed has expired, so nobody is logged out.
 */
import * as Command from "@effect/cli/Command"
import { Console, Effect, Option } from "effect"
import { SigningKeys } from "@ridequote/core"
import { printJson } from "./Output.js"
import { databaseOption, jsonOption, jwtSecretConfig, parseDatabaseLocation, SettingInvalid } from "./Settings.js"
import { StorageLive } from "./Storage.js"

const rotate = Command.make(
  "rotate",
  { json: jsonOption, database: databaseOption },
  ({ database, json }) =>
    Effect.gen(function*() {
      const location = yield* parseDatabaseLocation(database)
      if (Option.isSome(yield* jwtSecretConfig)) {
        return yield* new SettingInvalid({
          message:
            "RIDEQUOTE_JWT_SECRET is set: tokens are signed with a key derived from it, not with database keys; " +
            "see docs/operations.md (Rotating keys and secrets)"
        })
      }
      const key = yield* Effect.flatMap(SigningKeys, (keys) => keys.rotate).pipe(
        Effect.provide(StorageLive(location, Option.none()))
      )
      if (json) return yield* printJson({ kid: key.kid })
      yield* Console.log(
        `New signing key ${key.kid}. Earlier keys keep verifying the tokens they signed until those expire.`
      )
    })
).pipe(Command.withDescription("Make a new current token-signing key (database-kept keys only)"))

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("Token-signing keys"),
  Command.withSubcommands([rotate])
)
