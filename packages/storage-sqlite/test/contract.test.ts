/** The storage contract (shared with PostgreSQL, see @ridequote/storage-sql/testing) on SQLite files. */
import { storageContract } from "@ridequote/storage-sql/testing"
import { sqliteUnderTest } from "./fixtures.js"

storageContract(sqliteUnderTest())
