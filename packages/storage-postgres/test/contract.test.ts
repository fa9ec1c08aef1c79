/** The storage contract (the same suite SQLite runs, see @ridequote/storage-sql/testing) on PostgreSQL. */
import { describe } from "vitest"
import { postgresAvailable, postgresUnderTest, storageContract } from "./fixtures.js"

describe.runIf(postgresAvailable)("storage contract", () => {
  storageContract(postgresUnderTest())
})
