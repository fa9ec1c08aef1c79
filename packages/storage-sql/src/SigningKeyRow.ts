/** How a signing key is stored: a random kid and 256 random bits, base64url in TEXT columns. */
import { randomBytes } from "node:crypto"

/** 256 bits: HS256 keys must be at least as long as the hash output. */
export const SIGNING_KEY_BYTES = 32

export const newSigningKeyRow = (): { readonly kid: string; readonly secret: string } => ({
  kid: randomBytes(16).toString("base64url"),
  secret: randomBytes(SIGNING_KEY_BYTES).toString("base64url")
})
