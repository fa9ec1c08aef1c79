import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck, Redacted } from "effect"
import { createHmac } from "node:crypto"
import { MAX_CLOCK_SKEW_SECONDS, parseJwt, signJwt, verifyJwt } from "../../src/auth/Jwt.js"
import { MAX_TOKEN_TTL_SECONDS } from "../../src/Account.js"
import { AccountId, Jti, KeyId } from "../../src/Ids.js"
import type { SigningKey, SigningKeyRing } from "../../src/ports/SigningKeys.js"
import type { TokenClaims } from "../../src/Token.js"
import { segment } from "./fixtures.js"

const key = (kid: string, fill: number): SigningKey => ({
  kid: KeyId.make(kid),
  secret: Redacted.make(new Uint8Array(32).fill(fill))
})
const current = key("k2", 2)
const retired = key("k1", 1)
const ring: SigningKeyRing = { current, verifying: new Map([[current.kid, current], [retired.kid, retired]]) }

const iat = 1_790_000_000
const claims: TokenClaims = {
  iss: "ridequote",
  sub: AccountId.make("0f8fad5b-d9cb-469f-a165-70867728950e"),
  jti: Jti.make("7c9e6679-7425-40de-944b-e07fc1f90ae7"),
  iat,
  exp: iat + 3600
}
const now = (iat + 10) * 1000
const token = signJwt(claims, current)

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")
/** A token with any header and payload, signed with `with` (HMAC of the given hash). */
const forge = (header: unknown, payload: unknown, using: SigningKey = current, hash = "sha256") => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac(hash, Redacted.value(using.secret)).update(input).digest("base64url")}`
}
const header = { alg: "HS256", typ: "JWT", kid: current.kid }

const failureTag = (t: string) => Either.match(verifyJwt(t, ring, now), { onLeft: (e) => e._tag, onRight: () => "ok" })

describe("jwt", () => {
  it("header is exactly {alg: HS256, typ: JWT, kid}", () => {
    const first = token.split(".")[0] ?? ""
    expect(Buffer.from(first, "base64url").toString("utf8")).toBe(`{"alg":"HS256","typ":"JWT","kid":"k2"}`)
    expect(segment(token, 1)).toEqual(claims)
  })

  it("a token we signed verifies and gives back its claims", () => {
    expect(verifyJwt(token, ring, now)).toEqual(Either.right(claims))
  })

  it("a token signed with a retired key that is still in the ring verifies", () => {
    expect(verifyJwt(signJwt(claims, retired), ring, now)).toEqual(Either.right(claims))
  })

  it("alg none is rejected as token-invalid", () => {
    const unsigned = `${b64({ alg: "none", typ: "JWT", kid: current.kid })}.${b64(claims)}.`
    const result = verifyJwt(unsigned, ring, now)
    expect(Either.isLeft(result) && result.left._tag).toBe("TokenInvalid")
    expect(Either.isLeft(result) && result.left.code).toBe("result:token-invalid")
    expect(failureTag(`${b64({ alg: "none", kid: current.kid })}.${b64(claims)}.`)).toBe("TokenInvalid")
  })

  it("any algorithm other than HS256 is rejected as token-invalid, even with a valid MAC", () => {
    expect(failureTag(forge({ ...header, alg: "HS384" }, claims, current, "sha384"))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, alg: "HS512" }, claims, current, "sha512"))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, alg: "RS256" }, claims))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, alg: "hs256" }, claims))).toBe("TokenInvalid")
    const { alg: _, ...noAlg } = header
    expect(failureTag(forge(noAlg, claims))).toBe("TokenInvalid")
  })

  it("forge() itself makes tokens that verify (so the rejections above are about the one field changed)", () => {
    expect(failureTag(forge(header, claims))).toBe("ok")
  })

  it("wrong issuer is rejected as token-invalid", () => {
    expect(failureTag(forge(header, { ...claims, iss: "someone-else" }))).toBe("TokenInvalid")
    const { iss: _, ...noIss } = claims
    expect(failureTag(forge(header, noIss))).toBe("TokenInvalid")
  })

  it("unknown kid is rejected as token-invalid", () => {
    const stranger = key("k9", 9)
    expect(failureTag(signJwt(claims, stranger))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, kid: "k9" }, claims))).toBe("TokenInvalid")
    const { kid: _, ...noKid } = header
    expect(failureTag(forge(noKid, claims))).toBe("TokenInvalid")
  })

  it("a signature made with another key is rejected as token-invalid", () => {
    expect(failureTag(forge(header, claims, retired))).toBe("TokenInvalid")
  })

  it("tampered payload is rejected as token-invalid", () => {
    const [h, , s] = token.split(".")
    const otherAccount = { ...claims, sub: "11111111-2222-4333-8444-555555555555" }
    expect(failureTag(`${h}.${b64(otherAccount)}.${s}`)).toBe("TokenInvalid")
    expect(failureTag(`${h}.${b64({ ...claims, exp: claims.exp + 86_400 })}.${s}`)).toBe("TokenInvalid")
  })

  it("typ, when present, must be JWT", () => {
    const { typ: _, ...noTyp } = header
    expect(failureTag(forge(noTyp, claims))).toBe("ok")
    expect(failureTag(forge({ ...header, typ: "at+jwt" }, claims))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, typ: null }, claims))).toBe("TokenInvalid")
  })

  it("crit header (and the b64 extension) is rejected as token-invalid", () => {
    expect(failureTag(forge({ ...header, crit: ["exp"] }, claims))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, crit: [] }, claims))).toBe("TokenInvalid")
    expect(failureTag(forge({ ...header, b64: false }, claims))).toBe("TokenInvalid")
  })

  it("claims that do not decode are rejected as token-invalid", () => {
    expect(failureTag(forge(header, { ...claims, exp: String(claims.exp) }))).toBe("TokenInvalid")
    expect(failureTag(forge(header, { ...claims, iat: 1.5 }))).toBe("TokenInvalid")
    expect(failureTag(forge(header, { ...claims, jti: "not-a-uuid" }))).toBe("TokenInvalid")
    const { exp: _, ...noExp } = claims
    expect(failureTag(forge(header, noExp))).toBe("TokenInvalid")
  })

  it("a correctly signed token with any claim beyond the five documented ones is token-invalid", () => {
    expect(failureTag(forge(header, { ...claims, admin: true }))).toBe("TokenInvalid")
    expect(failureTag(forge(header, { ...claims, scope: "audit:write" }))).toBe("TokenInvalid")
    expect(failureTag(forge(header, { ...claims, nbf: claims.iat }))).toBe("TokenInvalid")
    // Even a claim whose value is null or undefined-like counts: the key itself is the excess.
    expect(failureTag(forge(header, { ...claims, admin: null }))).toBe("TokenInvalid")
  })

  it("expiry at exactly exp: valid until the second before, expired from exp on", () => {
    const at = (ms: number) => Either.match(verifyJwt(token, ring, ms), { onLeft: (e) => e._tag, onRight: () => "ok" })
    expect(at(claims.exp * 1000 - 1)).toBe("ok")
    expect(at(claims.exp * 1000)).toBe("TokenExpired")
    expect(at(claims.exp * 1000 + 1)).toBe("TokenExpired")
  })

  it("iat ahead of the clock by more than the documented skew (60 s) is token-invalid; within it, valid", () => {
    const at = (issuedAt: number, lifetime = 3600) =>
      failureTag(signJwt({ ...claims, iat: issuedAt, exp: issuedAt + lifetime }, current))
    const nowSeconds = now / 1000
    expect(at(nowSeconds + MAX_CLOCK_SKEW_SECONDS)).toBe("ok")
    expect(at(nowSeconds + MAX_CLOCK_SKEW_SECONDS + 1)).toBe("TokenInvalid")
    // The probe's case: an hour ahead, to outlive a revoke-all cutoff.
    expect(at(nowSeconds + 3600)).toBe("TokenInvalid")
  })

  it("a lifetime (exp - iat) over 366 days, zero or negative is token-invalid; exactly 366 days is valid", () => {
    const lived = (lifetime: number) => failureTag(signJwt({ ...claims, exp: claims.iat + lifetime }, current))
    expect(lived(MAX_TOKEN_TTL_SECONDS)).toBe("ok")
    expect(lived(MAX_TOKEN_TTL_SECONDS + 1)).toBe("TokenInvalid")
    expect(lived(Number.MAX_SAFE_INTEGER - claims.iat)).toBe("TokenInvalid")
    expect(lived(0)).toBe("TokenInvalid")
    expect(lived(-5)).toBe("TokenInvalid")
  })

  it("not three segments is unauthorized (not a well-formed JWT)", () => {
    const [h, p, s] = token.split(".")
    for (const t of ["", "abc", `${h}.${p}`, `${h}.${p}.${s}.${s}`, `${h}..${s}`, `.${p}.${s}`]) {
      expect(failureTag(t)).toBe("Unauthorized")
    }
  })

  it("non-base64url chars, padding or non-canonical encodings are unauthorized", () => {
    const [h, p, s = ""] = token.split(".")
    const std = (x: string) => Buffer.from(x, "base64url").toString("base64") // standard alphabet, padded
    expect(failureTag(`${h}.${p}.${s}=`)).toBe("Unauthorized")
    expect(failureTag(`${h}=.${p}.${s}`)).toBe("Unauthorized")
    expect(failureTag(`${h}.${p}.${s.slice(0, 10)}+${s.slice(11)}`)).toBe("Unauthorized")
    expect(failureTag(`${h}.${p}.${s.slice(0, 10)}/${s.slice(11)}`)).toBe("Unauthorized")
    expect(failureTag(`${h}.${p}.${s.slice(0, 10)} ${s.slice(11)}`)).toBe("Unauthorized")
    expect(failureTag(`${h}.${p}.${std(s)}`)).toBe("Unauthorized")
    // 32 bytes in 43 chars leave 2 spare bits in the last one; only the spelling with zeros is accepted.
    const last = s.at(-1) ?? "A"
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] ?? "A"
    expect(Buffer.from(s.slice(0, -1) + sibling, "base64url")).toEqual(Buffer.from(s, "base64url"))
    expect(failureTag(`${h}.${p}.${s.slice(0, -1)}${sibling}`)).toBe("Unauthorized")
  })

  it("a header or payload that is not a JSON object is unauthorized", () => {
    const [h, p, s] = token.split(".")
    expect(failureTag(`${b64("not json")}.${p}.${s}`)).toBe("Unauthorized")
    expect(failureTag(`${b64([1, 2])}.${p}.${s}`)).toBe("Unauthorized")
    expect(failureTag(`${h}.${b64("null")}.${s}`)).toBe("Unauthorized")
    expect(failureTag(`${h}.${b64("42")}.${s}`)).toBe("Unauthorized")
  })

  it("an oversized token is unauthorized without being parsed", () => {
    expect(failureTag(forge(header, { ...claims, padding: "x".repeat(5000) }))).toBe("Unauthorized")
  })

  it("parseJwt accepts exactly the tokens signJwt makes", () => {
    expect(Either.isRight(parseJwt(token))).toBe(true)
  })

  it("property: any corruption of a valid token never verifies", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ "
    const corruption = FastCheck.oneof(
      // replace one character
      FastCheck.record({ at: FastCheck.nat(), by: FastCheck.constantFrom(...alphabet), kind: FastCheck.constant("replace") }),
      // insert one character
      FastCheck.record({ at: FastCheck.nat(), by: FastCheck.constantFrom(...alphabet), kind: FastCheck.constant("insert") }),
      // delete one character
      FastCheck.record({ at: FastCheck.nat(), by: FastCheck.constant(""), kind: FastCheck.constant("delete") })
    )
    FastCheck.assert(
      FastCheck.property(corruption, ({ at, by, kind }) => {
        const i = at % token.length
        const corrupted = kind === "replace"
          ? token.slice(0, i) + by + token.slice(i + 1)
          : kind === "insert"
          ? token.slice(0, i) + by + token.slice(i)
          : token.slice(0, i) + token.slice(i + 1)
        FastCheck.pre(corrupted !== token)
        return Either.isLeft(verifyJwt(corrupted, ring, now))
      }),
      { numRuns: 2000 }
    )
  })

  it("property: tokens signed for any valid claims verify back to exactly those claims", () => {
    const uuid = FastCheck.uuid({ version: 4 })
    FastCheck.assert(
      FastCheck.property(
        uuid,
        uuid,
        FastCheck.integer({ min: 0, max: 2_000_000_000 }),
        FastCheck.integer({ min: 60, max: 31_622_400 }),
        (sub, jti, issuedAt, ttl) => {
          const c: TokenClaims = {
            iss: "ridequote",
            sub: AccountId.make(sub),
            jti: Jti.make(jti),
            iat: issuedAt,
            exp: issuedAt + ttl
          }
          const t = signJwt(c, current)
          expect(verifyJwt(t, ring, issuedAt * 1000)).toEqual(Either.right(c))
          expect(Either.isLeft(verifyJwt(t, ring, (issuedAt + ttl) * 1000))).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })
})
