/** A separate process running `migrateSqlite` (for tests of several processes on one file). */
import { Effect, Exit } from "effect"
import { migrateSqlite } from "../../src/index.js"

const filename = process.argv[2]
if (filename === undefined) throw new Error("usage: migrate.ts <file>")
const exit = await Effect.runPromiseExit(migrateSqlite(filename))
process.stdout.write(Exit.isSuccess(exit) ? "migrated\n" : `failed ${JSON.stringify(exit.cause)}\n`)
process.exitCode = Exit.isSuccess(exit) ? 0 : 1
