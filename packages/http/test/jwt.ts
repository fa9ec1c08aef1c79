/** Hand-made JWTs for the 401 rows: the test signs what the service must refuse. */
import { createHmac } from "node:crypto"
import { SigningKeys } from "@ridequote/core"
import { Effect, Redacted } from "effect"

const segment = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url")

export const signWith = (secret: Uint8Array, header: Record<string, unknown>, claims: Record<string, unknown>): string => {
  const input = `${segment(header)}.${segment(claims)}`
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`
}

/** Signs `claims` with the service's current key (so only the claims can be wrong). */
export const signWithServiceKey = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const ring = yield* (yield* SigningKeys).ring
    return signWith(Redacted.value(ring.current.secret), { alg: "HS256", typ: "JWT", kid: ring.current.kid, ...header }, claims)
  }).pipe(Effect.orDie)

/** `alg: none`, no signature. */
export const unsignedToken = (claims: Record<string, unknown>): string =>
  `${segment({ alg: "none", typ: "JWT" })}.${segment(claims)}.`

/** The claims of a token, read without verifying. */
export const claimsOf = (token: string): Record<string, unknown> => {
  const payload = token.split(".")[1] ?? ""
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>
}
