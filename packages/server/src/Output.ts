/**
 * What operator commands print. Human output is aligned text; `--json` output is exactly one
 * JSON object on stdout. An account is printed through core's `Account` schema, so the JSON
 * matches `GET /v1/customer/me` field for field. A secret is printed only by the two commands
 * that create one (`accounts create`, `accounts rotate-secret`), once.
 */
import { Console, DateTime, Effect, Schema } from "effect"
import { Account } from "@ridequote/core"

/** The wire (JSON) form of an account. */
export const encodeAccount = (account: Account): typeof Account.Encoded => Schema.encodeSync(Account)(account)

/** "1 token", "2 tokens", "0 tokens". */
export const countOf = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`

/** Prints one JSON object on one line of stdout. */
export const printJson = (value: object): Effect.Effect<void> => Console.log(JSON.stringify(value))

const behaviorsLine = (account: Account): string => {
  const extra = account.pricing.enabledBehaviors.filter((b) => b !== account.pricing.defaultBehavior)
  return extra.length === 0
    ? account.pricing.defaultBehavior
    : `${account.pricing.defaultBehavior} (also enabled: ${extra.join(", ")})`
}

export const describeAccount = (account: Account): string =>
  [
    `id:         ${account.id}`,
    `name:       ${account.name}`,
    `status:     ${account.status}`,
    `token TTL:  ${account.tokenTtlSeconds} s`,
    `behavior:   ${behaviorsLine(account)}`,
    `created:    ${DateTime.formatIso(account.createdAt)}`
  ].join("\n")

const pad = (s: string, width: number): string => s + " ".repeat(Math.max(0, width - s.length))

/** One account per line under a header; empty list says so. */
export const accountTable = (accounts: ReadonlyArray<Account>): string => {
  if (accounts.length === 0) return "No accounts yet. Create one with: ridequote accounts create --name NAME"
  const rows = accounts.map((a) => [
    a.id,
    a.status,
    String(a.tokenTtlSeconds),
    a.pricing.defaultBehavior,
    DateTime.formatIso(a.createdAt),
    a.name
  ])
  const header = ["ID", "STATUS", "TTL_S", "BEHAVIOR", "CREATED", "NAME"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i] ?? 0))).join("  ")
  return [line(header), ...rows.map(line)].join("\n")
}

export const SECRET_NOTICE =
  "Store the secret now: it is shown once and cannot be read back (accounts rotate-secret issues a new one)."
