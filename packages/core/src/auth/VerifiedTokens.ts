/**
 * Tokens whose signature and claims have already been checked, so that a caller sending the
 * same bearer token on every request pays the HMAC, two base64url decodes, a JSON parse and a
 * claims decode once rather than each time (~10 % of a quote's CPU over HTTP). Revocation and
 * the account's status are not cached here: `Tokens.verify` checks them on every request.
 *
 * Bounded: past `capacity` tokens the oldest is forgotten (it is checked in full next time),
 * so memory stays flat however many tokens are seen.
 */
import type { SigningKey } from "../ports/SigningKeys.js"
import type { TokenClaims } from "../Token.js"

export interface VerifiedToken {
  readonly claims: TokenClaims
  readonly kid: string
  /** The key it verified with: a hit counts only while the ring still answers this key. */
  readonly key: SigningKey
}

export const DEFAULT_VERIFIED_TOKENS = 10_000

export const makeVerifiedTokens = (capacity: number = DEFAULT_VERIFIED_TOKENS) => {
  const entries = new Map<string, VerifiedToken>()
  return {
    get: (token: string): VerifiedToken | undefined => entries.get(token),
    /**
     * Records a token that has just passed the full check. A token already held is updated in
     * place: it was checked again because the ring answered its kid with another key object (a
     * reload, a rotation elsewhere), and keeping the old object would fail every later hit and
     * send the token through the full check on every request from then on.
     */
    remember: (token: string, claims: TokenClaims, kid: string, key: SigningKey): void => {
      if (!entries.has(token) && entries.size >= capacity) {
        const oldest = entries.keys().next()
        if (oldest.done !== true) entries.delete(oldest.value)
      }
      entries.set(token, { claims, kid, key })
    },
    size: (): number => entries.size
  }
}

/** The cache `Tokens` keeps (see `makeTokensWith`). */
export type VerifiedTokens = ReturnType<typeof makeVerifiedTokens>
