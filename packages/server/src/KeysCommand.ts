/**
 * `ridequote keys rotate`: a new current token-signing key in the database. The previous key
 * keeps verifying until every token it signed has expired, so nobody is logged out.
 * `ridequote keys retire KID`: a key that stops verifying at once.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Console, Effect, Option } from "effect"
import { KeyId, SigningKeys } from "@ridequote/core"
import type { SigningKey, StorageUnavailable } from "@ridequote/core"
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

const kidArgument = Args.text({ name: "KID" }).pipe(Args.withDescription("The signing key's id (a token header's kid)"))

/**
 * `ridequote keys retire KID`: for a key that may have leaked. It stops verifying at once here
 * and on every running instance at its next feed read (at once on PostgreSQL's NOTIFY, within
 * the refresh interval otherwise); tokens it signed answer 401 token-invalid. A current key is
 * replaced by a new one first. Unlike `rotate`, this logs out every holder of such a token.
 */
const retire = Command.make(
  "retire",
  { kid: kidArgument, json: jsonOption, database: databaseOption },
  ({ database, json, kid }) =>
    Effect.gen(function*() {
      const location = yield* parseDatabaseLocation(database)
      if (Option.isSome(yield* jwtSecretConfig)) {
        return yield* new SettingInvalid({
          message: "RIDEQUOTE_JWT_SECRET is set: there are no database keys to retire; change that variable instead"
        })
      }
      const retireKey = (keys: SigningKeys): Effect.Effect<SigningKey, SettingInvalid | StorageUnavailable> =>
        keys.retire === undefined
          ? Effect.fail(new SettingInvalid({ message: "this storage cannot retire signing keys" }))
          : keys.retire(KeyId.make(kid)).pipe(
            Effect.catchTag("SigningKeyNotFound", (e) => Effect.fail(new SettingInvalid({ message: e.message })))
          )
      const current = yield* Effect.flatMap(SigningKeys, retireKey).pipe(
        Effect.provide(StorageLive(location, Option.none()))
      )
      if (json) return yield* printJson({ retired: kid, current: current.kid })
      yield* Console.log(
        `Signing key ${kid} retired: its tokens are refused now and on every instance within its refresh interval. ` +
          `Current key: ${current.kid}.`
      )
    })
).pipe(Command.withDescription("Stop a signing key verifying at once (a key that may have leaked)"))

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("Token-signing keys"),
  Command.withSubcommands([rotate, retire])
)
