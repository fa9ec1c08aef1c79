/**
 * The HTTP contract suite of @ridequote/http (every seed and contract rule, over real HTTP)
 * run on the storage `serve` uses: a SQLite file in a temporary folder.
 */
import { afterAll } from "vitest"
import { SqliteStorageLive } from "@ridequote/storage-sqlite"
import { contractSuite } from "../../http/test/contract-suite.js"
import { tempDir } from "./support/Processes.js"

const dir = tempDir("contract")
afterAll(() => dir.remove())

contractSuite("SQLite file", () => SqliteStorageLive({ filename: dir.file("contract.db") }))
