/**
 * `pnpm start`: runs the walkthrough on the in-memory engine (shipped markets, offline routes)
 * and prints each result. `SqliteEngineLive({ filename })` or `PostgresEngineLive({ url })`
 * from the same package run it on a database instead.
 */
import { MemoryEngineLive } from "@ridequote/compose"
import { Console, DateTime, Effect } from "effect"
import { walkthrough } from "./program.js"

const program = walkthrough.pipe(
  Effect.tap(({ accountId, audit, quote, token }) =>
    Console.log(
      [
        `account   ${accountId}`,
        `token     jti ${token.jti}, expires ${DateTime.formatIso(token.expiresAt)} (${token.ttlSeconds} s)`,
        `quote     ${quote.mode}, ${quote.distanceKm} km, ${quote.durationMinutes} min, ${quote.currency}`,
        ...Object.entries(quote.recommendations).map(
          ([level, points]) => `  ${level.padEnd(9)} ${points.map((p) => `${p.label} ${p.price}`).join("  ")}`
        ),
        `market    ${quote.market.id}${quote.market.sampleData ? " (SAMPLE DATA: invented providers and prices)" : ""}, ${
          Object.keys(quote.marketPrices).length
        } provider/level price distributions`,
        `audit     ${audit.length} entry: ${audit.map((e) => `${e.requestId} ${e.decision.outcome}`).join(", ")}`
      ].join("\n")
    )
  ),
  Effect.provide(MemoryEngineLive())
)

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
