/**
 * A RouteResolver that asks an OSRM-compatible routing server (`GET
 * /route/v1/driving/{lon},{lat};{lon},{lat}`), for deployments that run one.
 *
 * - Each request has a timeout; a slow, failing or unreachable server, or an answer without a
 *   route, falls back to another resolver (the offline one by default), so a quote never
 *   waits on the router longer than the timeout.
 * - Answers are cached by the coordinates rounded to 5 decimals (about 1 m), least recently
 *   used first out: the road distance and free-flow time of a pair do not change by the minute.
 * - OSRM's duration is free-flow driving time; the pickup/drop-off overhead is added, as the
 *   offline estimator does.
 */
import { Duration, Effect, Either, Layer, Option } from "effect"
import { RouteResolver } from "@ridequote/core"
import type { ResolvedRoute, RouteQuery } from "@ridequote/core"
import { PICKUP_DROPOFF_MINUTES } from "./Estimator.js"
import { offlineResolver } from "./Resolvers.js"

/** Where the OSRM-compatible server is, and how long and how much to rely on it. */
export interface OsrmOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:5000` (the path is appended). */
  readonly baseUrl: string
  /** Longest wait for one answer before falling back. Default 1 s. */
  readonly timeout?: Duration.DurationInput
  /** Routes kept in the cache. Default 10,000. */
  readonly cacheSize?: number
  /** Where to go when the server does not answer in time. Default: the offline resolver. */
  readonly fallback?: RouteResolver
}

/** One second: the most a quote waits for the router before the fallback answers. */
export const DEFAULT_OSRM_TIMEOUT = Duration.seconds(1)
/** Routes cached per process when `cacheSize` is not set. */
export const DEFAULT_OSRM_CACHE_SIZE = 10_000

const key = (q: RouteQuery): string =>
  [q.pickup.longitude, q.pickup.latitude, q.destination.longitude, q.destination.latitude].map((x) => x.toFixed(5)).join(",")

/** The route of an OSRM `route` answer, or undefined if it has none. */
export const parseOsrmRoute = (body: unknown): ResolvedRoute | undefined => {
  if (typeof body !== "object" || body === null || !("code" in body) || body.code !== "Ok" || !("routes" in body)) return undefined
  const routes = body.routes
  const first: unknown = Array.isArray(routes) ? routes[0] : undefined
  if (typeof first !== "object" || first === null || !("distance" in first) || !("duration" in first)) return undefined
  const meters = first.distance, seconds = first.duration
  if (typeof meters !== "number" || typeof seconds !== "number" || !(meters >= 0) || !(seconds >= 0)) return undefined
  return {
    distanceKm: Number((meters / 1000).toFixed(2)),
    durationMinutes: Number((PICKUP_DROPOFF_MINUTES + seconds / 60).toFixed(1))
  }
}

/**
 * A `RouteResolver` that asks the server, caches its answers (LRU) and falls back on any
 * failure, timeout or route-less answer, so it never fails on the server's account.
 */
export const makeOsrmResolver = (options: OsrmOptions): RouteResolver => {
  const base = options.baseUrl.replace(/\/+$/, "")
  const timeout = options.timeout ?? DEFAULT_OSRM_TIMEOUT
  const capacity = Math.max(1, options.cacheSize ?? DEFAULT_OSRM_CACHE_SIZE)
  const fallback = options.fallback ?? offlineResolver
  const cache = new Map<string, ResolvedRoute>()

  const remember = (k: string, route: ResolvedRoute) => {
    cache.delete(k)
    cache.set(k, route)
    if (cache.size > capacity) {
      const oldest = cache.keys().next()
      if (oldest.done !== true) cache.delete(oldest.value)
    }
  }

  const ask = (q: RouteQuery, k: string): Effect.Effect<Option.Option<ResolvedRoute>> =>
    Effect.tryPromise({
      try: async (signal) => {
        const url = `${base}/route/v1/driving/${q.pickup.longitude},${q.pickup.latitude};${q.destination.longitude},${q.destination.latitude}?overview=false&alternatives=false&steps=false`
        const response = await fetch(url, { signal })
        return response.ok ? parseOsrmRoute(await response.json()) : undefined
      },
      catch: () => undefined
    }).pipe(
      Effect.timeout(timeout),
      Effect.map((route) => {
        if (route !== undefined) remember(k, route)
        return Option.fromNullable(route)
      }),
      Effect.orElseSucceed(() => Option.none<ResolvedRoute>())
    )

  return {
    resolve: (q) => {
      const k = key(q)
      const hit = cache.get(k)
      if (hit !== undefined) {
        remember(k, hit)
        return Either.right(hit)
      }
      return Effect.flatMap(ask(q, k), Option.match({ onNone: () => fallback.resolve(q), onSome: Effect.succeed }))
    }
  }
}

/** `makeOsrmResolver` as a layer; requires nothing. */
export const OsrmRouteResolverLive = (options: OsrmOptions): Layer.Layer<RouteResolver> =>
  Layer.sync(RouteResolver, () => makeOsrmResolver(options))
