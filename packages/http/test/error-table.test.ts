/** The error table agrees with core: each row's wire code is the error's own `.code`. */
import { describe, expect, it } from "@effect/vitest"
import {
  AccessViewStale, AccountBlocked, AccountNotFound, BehaviorNotFound, InvalidCredentials, InvalidRequest,
  MarketNotServed, RouteMetadataIncomplete, RouteUnavailable, StorageUnavailable, TokenExpired, TokenInvalid,
  MarketId, TokenNotFound, TokenRevoked, Unauthorized
} from "@ridequote/core"
import {
  errorBody, errorTable, InternalError, MethodNotAllowed, PayloadTooLarge, RateLimited, UnknownRoute, UnsupportedMediaType
} from "../src/index.js"
import type { RenderableError } from "../src/index.js"

const message = "m"
const samples: ReadonlyArray<RenderableError> = [
  new InvalidRequest({ message, details: [{ path: ["a"], message }] }),
  new RouteMetadataIncomplete({ message }),
  new MarketNotServed({ message, nearest: [{ id: MarketId.make("nyc"), name: "New York City", distanceKm: 5570 }] }),
  new BehaviorNotFound({ message }),
  new InvalidCredentials({ message }),
  new Unauthorized({ message }),
  new TokenInvalid({ message }),
  new TokenExpired({ message }),
  new TokenRevoked({ message }),
  new AccountBlocked({ message, status: "Pending" }),
  new TokenNotFound({ message }),
  new AccountNotFound({ message }),
  new UnknownRoute({ message }),
  new MethodNotAllowed({ message, allow: ["GET"] }),
  new PayloadTooLarge({ message }),
  new UnsupportedMediaType({ message }),
  new RateLimited({ message, retryAfterSeconds: 3 }),
  new InternalError({ message }),
  new StorageUnavailable({ message }),
  new AccessViewStale({ message }),
  new RouteUnavailable({ message })
]

/** The status of each code, as docs/api.md ("Errors") states it. */
const CONTRACT_STATUS: Readonly<Record<string, number>> = {
  "result:invalid-request": 400,
  "result:route-metadata-incomplete": 400,
  "result:market-not-served": 422,
  "result:invalid-credentials": 401,
  "result:unauthorized": 401,
  "result:token-invalid": 401,
  "result:token-expired": 401,
  "result:token-revoked": 401,
  "result:account-blocked": 403,
  "result:not-found": 404,
  "result:method-not-allowed": 405,
  "result:payload-too-large": 413,
  "result:unsupported-media-type": 415,
  "result:rate-limited": 429,
  "result:internal": 500,
  "result:unavailable": 503
}

describe("error table", () => {
  it("has a row for every renderable error; each body's code is the error's .code, with the contract's status", () => {
    expect(samples.map((e) => e._tag).sort()).toEqual([...errorTable.keys()].sort())
    for (const e of samples) {
      const { body, status } = errorBody(e)
      expect(body.code).toBe(e.code)
      expect(status, e._tag).toBe(CONTRACT_STATUS[e.code])
    }
  })

  it("bodies are {code, message, details?} plus the row's own fields; requestId when asked", () => {
    expect(errorBody(samples[0] as RenderableError, "id-1").body).toEqual({
      code: "result:invalid-request", message, details: [{ path: ["a"], message }], requestId: "id-1"
    })
    expect(errorBody(new AccountBlocked({ message, status: "Blocked" })).body).toEqual({
      code: "result:account-blocked", message, accountStatus: "Blocked"
    })
    expect(errorBody(new TokenExpired({ message })).body).toEqual({ code: "result:token-expired", message })
    expect(errorBody(samples[2] as RenderableError).body).toEqual({
      code: "result:market-not-served", message, nearest: [{ id: "nyc", name: "New York City", distanceKm: 5570 }]
    })
  })
})

describe("HttpErrors", () => {
  it("lists every error class of HttpErrors.ts exactly once", async () => {
    const module = await import("../src/HttpErrors.js")
    const { HttpErrors } = module
    const classes = Object.values(module).filter((v) => typeof v === "function" && "fields" in v)
    expect(new Set(HttpErrors).size).toBe(HttpErrors.length)
    expect(classes.length).toBe(HttpErrors.length)
    for (const c of classes) expect(HttpErrors).toContain(c)
  })
})
