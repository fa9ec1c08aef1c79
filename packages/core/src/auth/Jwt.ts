/**
 * HS256 JSON Web Tokens on node:crypto (docs/security.md, "Bearer tokens").
 *
 * Hand-rolled rather than `jose` because verification sits on every bearer call and an
 * HMAC-SHA256 plus a constant-time compare is ~9× faster here (ARCHITECTURE, "JWT" row). The
 * price is re-implementing jose's protections, which is what most of this module is:
 * - strict base64url: no padding, nothing outside the alphabet, canonical trailing bits (so a
 *   token has exactly one spelling and a flipped character can never verify);
 * - exactly three segments, each a JSON object where one is expected;
 * - the algorithm is pinned: only `HS256` verifies (`none`, `HS384`, `RS256`… are refused), and
 *   the key comes from our ring by `kid`, never from the token;
 * - `typ`, when present, must be `JWT`; a `crit` header or `b64` extension is refused (we
 *   understand no extensions);
 * - the claims must decode with `TokenClaims`: exactly its five claims, no extra ones, issuer
 *   pinned to `ridequote`;
 * - `exp` is checked against the injected clock: a token is expired once now ≥ exp;
 * - `iat` may not lie ahead of the clock by more than `MAX_CLOCK_SKEW_SECONDS`, and the
 *   lifetime `exp − iat` must be in 1..366 days (`MAX_TOKEN_TTL_SECONDS`): we never issue
 *   anything else, so such a token was minted with a stolen key — one dated ahead to outlive
 *   a revoke-all's cutoff, or one that never expires.
 *
 * Error mapping (docs/api.md, "Errors"): not a well-formed JWT → `Unauthorized`; anything well formed
 * that we did not sign or do not accept → `TokenInvalid`; past `exp` → `TokenExpired`.
 */
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto"
import type { KeyObject } from "node:crypto"
import { Either, Redacted, Schema } from "effect"
import { TokenExpired, TokenInvalid, Unauthorized } from "../Errors.js"
import type { SigningKey, SigningKeyRing } from "../ports/SigningKeys.js"
import { MAX_TOKEN_TTL_SECONDS } from "../Account.js"
import { TokenClaims } from "../Token.js"

/** The only algorithm we sign with and the only one we accept. */
export const JWT_ALGORITHM = "HS256"

/**
 * Far above any token we issue (~300 bytes); refusing longer input early keeps a hostile
 * header from costing a large JSON parse.
 */
const MAX_TOKEN_LENGTH = 4096

/** HMAC-SHA256 output size. */
const SIGNATURE_BYTES = 32

const BASE64URL = /^[A-Za-z0-9_-]+$/
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

const encodeSegment = (value: unknown): string => Buffer.from(JSON.stringify(value), "utf8").toString("base64url")

/**
 * Strict base64url: alphabet only, no padding, and canonical (exactly one spelling per byte
 * string). Node's own decoder is lenient on all three, which would let several spellings of
 * one signature verify.
 */
const decodeBase64url = (segment: string): Buffer | undefined => {
  // Empty decodes to no bytes: an `alg: none` token ("header.payload.") must reach the
  // algorithm check and be refused as token-invalid, not pass for a malformed string.
  if (segment === "") return Buffer.alloc(0)
  const tail = segment.length % 4
  if (tail === 1 || !BASE64URL.test(segment)) return undefined
  // Canonical: the bits of the last character beyond the data (4 when 2 chars remain, 2 when 3) are zero.
  const spareBits = tail === 2 ? 0x0f : tail === 3 ? 0x03 : 0
  if ((ALPHABET.indexOf(segment.charAt(segment.length - 1)) & spareBits) !== 0) return undefined
  return Buffer.from(segment, "base64url")
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const decodeJsonObject = (segment: string): Record<string, unknown> | undefined => {
  const bytes = decodeBase64url(segment)
  if (bytes === undefined) return undefined
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"))
    return isJsonObject(value) ? value : undefined
  } catch {
    // Not JSON: the caller reports the token as malformed; the parse error itself says nothing useful.
    return undefined
  }
}

/** Imported once per key: importing raw key bytes on every HMAC costs about as much as the HMAC. */
const keyObjects = new WeakMap<SigningKey, KeyObject>()
const keyObjectOf = (key: SigningKey): KeyObject => {
  const cached = keyObjects.get(key)
  if (cached !== undefined) return cached
  const created = createSecretKey(Redacted.value(key.secret))
  keyObjects.set(key, created)
  return created
}

const hmac = (key: SigningKey, signingInput: string): Buffer =>
  createHmac("sha256", keyObjectOf(key)).update(signingInput, "ascii").digest()

const encodeClaims = Schema.encodeSync(TokenClaims)
const decodeClaims = Schema.decodeUnknownEither(TokenClaims)

/** Signs `claims` with `key`; the header is exactly `{"alg":"HS256","typ":"JWT","kid":…}`. */
export const signJwt = (claims: TokenClaims, key: SigningKey): string => {
  const signingInput = `${encodeSegment({ alg: JWT_ALGORITHM, typ: "JWT", kid: key.kid })}.${
    encodeSegment(encodeClaims(claims))
  }`
  return `${signingInput}.${hmac(key, signingInput).toString("base64url")}`
}

/** A token split into its parts, before any trust is placed in them. */
interface ParsedJwt {
  readonly header: Record<string, unknown>
  readonly payload: Record<string, unknown>
  readonly signingInput: string
  // Uint8Array in the type (a Buffer at run time): the published .d.ts must not need Node's types.
  readonly signature: Uint8Array
}

/** A well-formed token whose header we accept; its signature is not checked yet. */
export interface UnverifiedJwt {
  /** The signing key it names: look it up in our own ring, never take key material from the token. */
  readonly kid: string
  readonly parsed: ParsedJwt
}

const malformed = new Unauthorized({ message: "the bearer token is not a well-formed JWT" })
const invalid = (message: string) => new TokenInvalid({ message })
/** Also the answer for a kid that no key ring knows. */
export const unknownKey = invalid("the token's signing key is unknown")

/** Structure only: three strict base64url segments, the first two JSON objects. */
export const parseJwt = (token: string): Either.Either<ParsedJwt, Unauthorized> => {
  if (token.length > MAX_TOKEN_LENGTH) return Either.left(malformed)
  const parts = token.split(".")
  if (parts.length !== 3) return Either.left(malformed)
  const [h, p, s] = parts as [string, string, string]
  const header = decodeJsonObject(h)
  const payload = decodeJsonObject(p)
  const signature = decodeBase64url(s)
  if (header === undefined || payload === undefined || signature === undefined) return Either.left(malformed)
  return Either.right({ header, payload, signingInput: `${h}.${p}`, signature })
}

/** Structure and header rules (algorithm pinned, `typ`, no extensions, a `kid`). */
export const readJwt = (token: string): Either.Either<UnverifiedJwt, Unauthorized | TokenInvalid> =>
  Either.flatMap(parseJwt(token), (parsed): Either.Either<UnverifiedJwt, TokenInvalid> => {
    const { header } = parsed
    if (header.alg !== JWT_ALGORITHM) return Either.left(invalid("the token's algorithm is not accepted"))
    if ("typ" in header && header.typ !== "JWT") return Either.left(invalid("the token's type is not JWT"))
    if ("crit" in header || "b64" in header) {
      return Either.left(invalid("the token uses an unsupported header extension"))
    }
    return typeof header.kid === "string" ? Either.right({ kid: header.kid, parsed }) : Either.left(unknownKey)
  })

const signatureMatches = (parsed: ParsedJwt, key: SigningKey): boolean => {
  const expected = hmac(key, parsed.signingInput)
  // Length is public (always 32 for HS256); only equal lengths may go to timingSafeEqual.
  return parsed.signature.length === SIGNATURE_BYTES && timingSafeEqual(parsed.signature, expected)
}

/**
 * Signature with the key the token names, then claims, then expiry: nothing in the payload is
 * interpreted before the signature holds.
 */
export const checkJwt = (
  jwt: UnverifiedJwt,
  key: SigningKey,
  nowMs: number
): Either.Either<TokenClaims, TokenInvalid | TokenExpired> => {
  if (!signatureMatches(jwt.parsed, key)) return Either.left(invalid("the token's signature does not verify"))
  return Either.flatMap(
    Either.mapLeft(decodeClaims(jwt.parsed.payload), () => invalid("the token's claims are not accepted")),
    (claims) => Either.flatMap(plausible(claims, nowMs), (c) => unexpired(c, nowMs))
  )
}

/**
 * How far a token's `iat` may lie ahead of this instance's clock: instances that share a
 * database sign with each other's keys, and their clocks differ by a few seconds at most
 * (NTP keeps them within milliseconds). Documented in docs/security.md.
 */
export const MAX_CLOCK_SKEW_SECONDS = 60

/** The claims, unless they claim a time we could not have issued them at (see the module's list). */
const plausible = (claims: TokenClaims, nowMs: number): Either.Either<TokenClaims, TokenInvalid> => {
  if (claims.iat > Math.floor(nowMs / 1000) + MAX_CLOCK_SKEW_SECONDS) {
    return Either.left(invalid("the token's iat lies in the future"))
  }
  const lifetime = claims.exp - claims.iat
  if (lifetime <= 0 || lifetime > MAX_TOKEN_TTL_SECONDS) {
    return Either.left(invalid("the token's lifetime (exp - iat) is not one we issue"))
  }
  return Either.right(claims)
}

/** The claims, unless `exp` has passed at `nowMs`. */
export const unexpired = (claims: TokenClaims, nowMs: number): Either.Either<TokenClaims, TokenExpired> =>
  nowMs >= claims.exp * 1000 ? Either.left(new TokenExpired({ message: "the token has expired" })) : Either.right(claims)

/** `readJwt` then `checkJwt` with the ring's key for the token's `kid`. */
export const verifyJwt = (
  token: string,
  ring: SigningKeyRing,
  nowMs: number
): Either.Either<TokenClaims, Unauthorized | TokenInvalid | TokenExpired> =>
  Either.flatMap(readJwt(token), (jwt) => {
    const key = ring.verifying.get(jwt.kid)
    return key === undefined ? Either.left(unknownKey) : checkJwt(jwt, key, nowMs)
  })
