/** How a signing key is stored: a random kid and 256 random bits, base64url in TEXT columns. */
import { randomBytes } from "node:crypto"

/** 256 bits: HS256 keys must be at least as long as the hash output. */
export const SIGNING_KEY_BYTES = 32

/**
 * A new key's row. The kid starts with "k": a bare base64url kid begins with "-" one time in 64,
 * and a command line then reads it as an option (`ridequote keys retire -Xb… --json` fails).
 */
export const newSigningKeyRow = (): { readonly kid: string; readonly secret: string } => ({
  kid: `k${randomBytes(16).toString("base64url")}`,
  secret: randomBytes(SIGNING_KEY_BYTES).toString("base64url")
})
