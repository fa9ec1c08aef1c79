/**
 * The words every operator command uses for an account: its id is always the positional
 * ACCOUNT_ID (`accounts show ACCOUNT_ID`, `accounts set-status ACCOUNT_ID STATUS`,
 * `tokens revoke ACCOUNT_ID --all`), and a status is one of Active, Pending, Blocked in any case.
 */
import * as Args from "@effect/cli/Args"
import * as HelpDoc from "@effect/cli/HelpDoc"
import { AccountId, AccountNotFound } from "@ridequote/core"
import type { AccountStatus } from "@ridequote/core"
import { Effect, Schema } from "effect"

export const accountIdArg = Args.text({ name: "ACCOUNT_ID" }).pipe(
  Args.withDescription("The account's id (a UUID, as accounts list prints it)")
)

/** An id that is not even a UUID cannot name an account: same answer as an unknown one. */
export const parseAccountId = (raw: string): Effect.Effect<AccountId, AccountNotFound> =>
  Schema.decodeUnknown(AccountId)(raw.trim()).pipe(
    Effect.mapError(() => new AccountNotFound({ message: `no account with id ${JSON.stringify(raw)}` }))
  )

export const STATUSES: ReadonlyArray<AccountStatus> = ["Active", "Pending", "Blocked"]

/** Active, Pending or Blocked, written as in the contract or in any other case. */
export const statusArg = Args.text({ name: "STATUS" }).pipe(
  Args.withDescription("Active, Pending or Blocked (any case)"),
  Args.mapEffect((raw) => {
    const status = STATUSES.find((s) => s.toLowerCase() === raw.trim().toLowerCase())
    return status === undefined
      ? Effect.fail(HelpDoc.p(`STATUS must be Active, Pending or Blocked, not ${JSON.stringify(raw)}`))
      : Effect.succeed(status)
  })
)
