/**
 * The storage contract: one suite that every dialect runs against its own databases, so SQLite
 * and PostgreSQL are held to exactly the same behaviour. A dialect's test file calls
 * `storageContract` with its `StorageUnderTest`; dialect-only checks (query plans, pragmas,
 * LISTEN/NOTIFY) stay in that package's own tests.
 */
import { accessFeedContract } from "./AccessFeedContract.js"
import { accountStoreContract } from "./AccountStoreContract.js"
import { auditLogContract } from "./AuditLogContract.js"
import type { StorageUnderTest } from "./fixtures.js"
import { signingKeysContract } from "./SigningKeysContract.js"
import { tokenStoreContract } from "./TokenStoreContract.js"

export * from "./fixtures.js"

/**
 * Registers the whole storage contract (accounts, tokens, access feed, audit, signing keys) as
 * vitest suites against `h`; call it at the top level of a dialect's test file.
 */
export const storageContract = (h: StorageUnderTest): void => {
  accountStoreContract(h)
  tokenStoreContract(h)
  accessFeedContract(h)
  auditLogContract(h)
  signingKeysContract(h)
}
