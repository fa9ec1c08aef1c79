// The engine alone, for a consumer compiled without Node's types.
import { makeInMemoryEngineLive } from "@ridequote/core/testing"
import { Quotes, type QuoteResponse } from "@ridequote/core"
import { OfflineRouteResolverLive } from "@ridequote/routes"
import { Effect } from "effect"

export const layer = makeInMemoryEngineLive({ routeResolver: OfflineRouteResolverLive })
export const quotes: Effect.Effect<unknown, never, Quotes> = Quotes
export type Answer = QuoteResponse
