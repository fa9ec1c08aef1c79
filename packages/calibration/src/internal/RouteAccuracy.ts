/**
 * How close inferred routes come to the real ones: median absolute error of distance and
 * duration against the trip records' own figures, per resolver, on the trips of a forward
 * split's scored window (resolvers learned from the trips before the cut).
 */
import { DateTime, Effect, Option } from "effect"
import { RouteUnavailable, sampleMarket } from "@ridequote/core"
import type { ResolvedRoute } from "@ridequote/core"
import { empiricalRoute, makeOsrmResolver } from "@ridequote/routes"
import type { MarketModel } from "@ridequote/markets/model"
import { MIN_RESOLVABLE_KM, marketRows } from "./Fit.js"
import { inferRoute } from "./RouteInference.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import type { TripTable } from "./sources/TripRecords.js"

/** One resolver's median absolute errors against the records' real distances and durations. */
export interface ResolverAccuracy {
  readonly resolver: string
  readonly rows: number
  /** Median |inferred − real| distance, km, and as a share of the real distance. */
  readonly distanceMedianAbsErrorKm: number
  readonly distanceMedianAbsErrorShare: number
  readonly durationMedianAbsErrorMinutes: number
  readonly durationMedianAbsErrorShare: number
}

/** Every resolver's accuracy on one market's scored window. */
export interface RouteAccuracy {
  readonly market: string
  readonly scoredOn: { readonly from: string; readonly to: string }
  readonly resolvers: ReadonlyArray<ResolverAccuracy>
}

/** A resolver under test: distance and duration for a trip record, or undefined if it has none. */
export interface CandidateResolver {
  readonly name: string
  readonly resolve: (t: ObservedTrip) => { readonly distanceKm: number; readonly durationMinutes: number } | undefined
}

const median = (xs: Array<number>): number => {
  const s = Float64Array.from(xs).sort()
  const n = s.length
  return n === 0 ? Number.NaN : n % 2 === 1 ? (s[(n - 1) / 2] ?? 0) : ((s[n / 2 - 1] ?? 0) + (s[n / 2] ?? 0)) / 2
}

/** Scores `resolver` on `trips`; trips it cannot resolve are left out (see `rows`). */
export const measureResolver = (resolver: CandidateResolver, trips: ReadonlyArray<ObservedTrip>): ResolverAccuracy => {
  const dKm: Array<number> = [], dKmShare: Array<number> = [], dMin: Array<number> = [], dMinShare: Array<number> = []
  for (const t of trips) {
    const r = resolver.resolve(t)
    if (r === undefined) continue
    dKm.push(Math.abs(r.distanceKm - t.distanceKm))
    dKmShare.push(Math.abs(r.distanceKm - t.distanceKm) / t.distanceKm)
    dMin.push(Math.abs(r.durationMinutes - t.durationMinutes))
    dMinShare.push(Math.abs(r.durationMinutes - t.durationMinutes) / t.durationMinutes)
  }
  return {
    resolver: resolver.name,
    rows: dKm.length,
    distanceMedianAbsErrorKm: median(dKm),
    distanceMedianAbsErrorShare: median(dKmShare),
    durationMedianAbsErrorMinutes: median(dMin),
    durationMedianAbsErrorShare: median(dMinShare)
  }
}

/** The offline estimator with the model's learned profile and area speeds (the default resolver). */
export const offlineCandidate = (model: MarketModel): CandidateResolver => ({
  name: "offline",
  resolve: (t) => {
    const r = inferRoute(model.routeProfile, t.pickup, t.destination, t.hour, model.routing.areaSpeed)
    return r.greatCircleKm < MIN_RESOLVABLE_KM ? undefined : r
  }
})

/** The same without area speeds: what learning by area adds. */
export const profileOnlyCandidate = (model: MarketModel): CandidateResolver => ({
  name: "offline, hour only",
  resolve: (t) => {
    const r = inferRoute(model.routeProfile, t.pickup, t.destination, t.hour)
    return r.greatCircleKm < MIN_RESOLVABLE_KM ? undefined : r
  }
})

/** Observed routes between origin–destination cells, the offline estimate where a pair is thin. */
export const empiricalCandidate = (model: MarketModel): CandidateResolver => ({
  name: "empirical",
  resolve: (t) => {
    const offline = offlineCandidate(model).resolve(t)
    if (offline === undefined) return undefined
    return empiricalRoute(model.routing, model.routeProfile, t.pickup, t.destination, t.hour) ?? offline
  }
})

/**
 * Accuracy of the model's resolvers (hour-only and area-speed offline, empirical, plus `extra`)
 * on the market's trips from `from` to `to` (exclusive local dates).
 */
export const routeAccuracy = (
  model: MarketModel,
  table: TripTable,
  from: string,
  to: string,
  extra: ReadonlyArray<CandidateResolver> = []
): RouteAccuracy => {
  const scored = marketRows(table.trips).kept.filter((t) => t.localDate >= from && t.localDate < to)
  return {
    market: model.id,
    scoredOn: { from, to },
    resolvers: [profileOnlyCandidate(model), offlineCandidate(model), empiricalCandidate(model), ...extra].map((r) =>
      measureResolver(r, scored)
    )
  }
}

/** Trips of a forward split's scored window (the trips route accuracy is measured on). */
export const scoredTrips = (table: TripTable, from: string, to: string): ReadonlyArray<ObservedTrip> =>
  marketRows(table.trips).kept.filter((t) => t.localDate >= from && t.localDate < to)

/**
 * An OSRM-compatible server's accuracy on up to `limit` of the scored trips (every n-th, so
 * the sample spreads over the window), its own answers only: trips it has no route for are
 * left out and counted, never replaced by the fallback.
 */
export const measureOsrm = (
  baseUrl: string,
  trips: ReadonlyArray<ObservedTrip>,
  limit: number
): Effect.Effect<ResolverAccuracy & { readonly unanswered: number }> => {
  const step = Math.max(1, Math.ceil(trips.length / limit))
  const sample = trips.filter((_, i) => i % step === 0)
  const resolver = makeOsrmResolver({
    baseUrl,
    timeout: "5 seconds",
    fallback: { resolve: () => Effect.fail(new RouteUnavailable({ message: "no answer from the routing server" })) }
  })
  const market = { ...sampleMarket, routeProfile: { detourFactor: 1, speedKmhByHour: [] } }
  return Effect.map(
    Effect.forEach(sample, (t) =>
      resolver.resolve({ pickup: t.pickup, destination: t.destination, departAt: DateTime.unsafeMake(0), market }).pipe(
        Effect.map((route) => [t, route] as const),
        Effect.option
      ), { concurrency: 8 }),
    (answers) => {
      const found = new Map<ObservedTrip, ResolvedRoute>()
      for (const a of answers) if (Option.isSome(a)) found.set(a.value[0], a.value[1])
      const accuracy = measureResolver({ name: `osrm ${baseUrl}`, resolve: (t) => found.get(t) }, sample)
      return { ...accuracy, unanswered: sample.length - found.size }
    }
  )
}

const amount = (x: number, digits: number, unit: string) => (Number.isFinite(x) ? `${x.toFixed(digits)} ${unit}` : "n/a")
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : "n/a")

/** The results as a Markdown table, one row per market and resolver. */
export const renderRouteAccuracy = (results: ReadonlyArray<RouteAccuracy>): string => {
  const head = "| market | scored on | resolver | trips | distance MdAE | (share) | duration MdAE | (share) |"
  const rule = "|---|---|---|---:|---:|---:|---:|---:|"
  return [
    head,
    rule,
    ...results.flatMap((a) =>
      a.resolvers.map((r) =>
        `| ${a.market} | ${a.scoredOn.from} – ${a.scoredOn.to} (excl.) | ${r.resolver}${
          "unanswered" in r && typeof r.unanswered === "number" && r.unanswered > 0 ? ` (${r.unanswered} unanswered)` : ""
        } | ${r.rows} | ${amount(r.distanceMedianAbsErrorKm, 2, "km")} | ${pct(r.distanceMedianAbsErrorShare)} | ${
          amount(r.durationMedianAbsErrorMinutes, 1, "min")
        } | ${pct(r.durationMedianAbsErrorShare)} |`
      )
    )
  ].join("\n")
}
