/**
 * A fitted market model behind core's `Market` port.
 *
 * A trip is priced on the tariff regime in force at its moment (`Trip.departAt`: the
 * scheduled time, else now; a backtest's trip time). Price quantile at level q for provider p:
 *   Σ fees + metered(trip) × season(local month) × R_p,bucket(trip)(q)
 * where metered is the regime's fitted base fare for the trip's route source (supplied or
 * resolved route), season the regime's month-of-year factor for that source, and R the
 * provider's residual-ratio quantile function for the trip's bucket.
 * metered > 0 and R non-decreasing in q, so quantiles never cross.
 */
import { DateTime } from "effect"
import type { LocalTime, Market, MarketId, OfferSource, PriceDistribution, ProviderOffer, Trip } from "@ridequote/core"
import { minorDigits } from "@ridequote/core"
import type { KnowsRoutes } from "@ridequote/routes"
import { bucketOf, timeBucket } from "./Bucketing.js"
import { localClock, localDateClock, localMidnight, localMonthClock } from "./LocalClock.js"
import type { BaseFare, MarketModel, Regime, SpecialFare, SpecialFares } from "./ModelFile.js"
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { placePairPricing } from "./PlacePairs.js"
import type { PairPrice } from "./PlacePairs.js"
import { interpolateQuantile } from "./Quantiles.js"
import { chargesCache, conditionHolds, flatFareFor, versionAt } from "./tariff/Charges.js"
import type { TripMoment } from "./tariff/Charges.js"
import { meterRebase, offerSourceCache, tariffTripView, withLevel } from "./tariff/MarketTariffs.js"
import type { MarketTariffs, TariffTripView } from "./tariff/MarketTariffs.js"
import { flatFaresOnly } from "./tariff/TariffFile.js"
import type { ProviderTariff } from "./tariff/TariffFile.js"

/**
 * Where a trip's distance and duration came from: sent by the caller (`supplied`) or inferred by
 * a route resolver (`resolved`). Each has its own fitted fare and spread; the resolved spread is
 * wider, since an inferred route carries the error of not knowing the real one.
 */
export type RouteKind = "supplied" | "resolved"

/** The metered base fare for a route and local time. */
export const baseFare = (
  fare: BaseFare,
  model: Pick<MarketModel, "buckets">,
  distanceKm: number,
  durationMinutes: number,
  time: Pick<LocalTime, "hour" | "dayType">
): number => {
  let linear = fare.intercept + fare.perKm * distanceKm + fare.perMinute * durationMinutes +
    (fare.timeShift[timeBucket(model.buckets, time)] ?? 0)
  const knots = fare.speedKnotsKmh
  for (let k = 0; k < knots.length; k++) {
    linear += (fare.perKnotKm[k] ?? 0) * Math.max(distanceKm, ((knots[k] ?? 0) * durationMinutes) / 60)
  }
  return Number.isFinite(linear) ? Math.max(fare.floor, linear) : fare.floor
}

const feeTotals = new WeakMap<object, number>()
/** Sum of a regime's flat fees (summed once per regime: it is read per offer of every quote). */
export const feeTotal = (regime: Pick<Regime, "fees">): number => {
  let total = feeTotals.get(regime.fees)
  if (total === undefined) feeTotals.set(regime.fees, total = Object.values(regime.fees).reduce((a, b) => a + b, 0))
  return total
}

/** Price quantile function of one provider for one trip in one regime (shared by the market and the evaluation). */
export const priceQuantile = (
  model: MarketModel,
  regime: Regime,
  providerIndex: number,
  route: RouteKind,
  distanceKm: number,
  durationMinutes: number,
  time: Pick<LocalTime, "hour" | "dayType">,
  /** Local calendar month of the trip, 1–12; absent: no seasonal factor (the regime's average month). */
  month?: number,
  /** A trip between two known places (`PlacePairs`): the supplied fare at its km, its level and spread. */
  pair?: PairPrice
): ((q: number) => number) => {
  const fees = feeTotal(regime)
  const season = month === undefined ? 1 : (regime.seasonal[route][month - 1] ?? 1)
  const provider = regime.providers[providerIndex]
  const fareRoute: RouteKind = pair === undefined ? route : "supplied"
  const fare = provider?.routes?.[fareRoute] ?? regime.routes[fareRoute]
  const base = baseFare(fare, model, pair?.km ?? distanceKm, durationMinutes, time) * season * (pair?.level ?? 1)
  const row = pair?.spread ?? provider?.residuals[route][bucketOf(model.buckets, distanceKm, time)] ?? []
  const levels = model.quantileLevels
  return (q) => {
    const r = interpolateQuantile(levels, row, q)
    return Number.isFinite(r) ? fees + Math.max(0, base * r) : fees
  }
}

/**
 * The regime in force at an instant: the last one that began at or before it. Instants before
 * the first regime get the first (the oldest tariff the records show); without an instant,
 * the newest.
 */
export const regimeFinder = (model: MarketModel): ((epochMillis: number | undefined) => Regime) => {
  const starts = model.regimes.map((r) => localMidnight(model.timeZone, r.effectiveFrom))
  const newest = model.regimes[model.regimes.length - 1] as Regime
  return (at) => {
    if (at === undefined) return newest
    let i = starts.length - 1
    while (i > 0 && (starts[i] ?? 0) > at) i--
    return model.regimes[i] ?? newest
  }
}

/** Kilometres per degree of latitude on the mean Earth radius (6371.0088 km). */
const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180

/** The zone of a point: the nearest centroid, if within that zone's radius (≤ `maxKm`); else undefined. */
export const zoneFinder = (special: SpecialFares): ((p: Coordinates) => number | undefined) => {
  // Columns, not tuples: the scan runs on every quote near an airport.
  const n = special.zones.length
  const ids = new Int32Array(n), lons = new Float64Array(n), lats = new Float64Array(n), radii = new Float64Array(n)
  special.zones.forEach(([id, lon, lat, radius], i) => ((ids[i] = id), (lons[i] = lon), (lats[i] = lat), (radii[i] = radius)))
  // ~1° of latitude is 111 km: a cheap box test before the great circle.
  const dLat = special.maxKm / 111
  return (p) => {
    let best: number | undefined, bestKm = special.maxKm
    const cos = Math.max(0.1, Math.cos((p.latitude * Math.PI) / 180))
    const dLon = dLat / cos
    let bestRadius = 0
    for (let i = 0; i < n; i++) {
      const lat = lats[i] ?? 0, lon = lons[i] ?? 0
      if (Math.abs(lat - p.latitude) > dLat || Math.abs(lon - p.longitude) > dLon) continue
      // Within a few km the plane is the sphere to a few metres: no trigonometry per zone.
      const dy = (lat - p.latitude) * KM_PER_DEGREE, dx = (lon - p.longitude) * KM_PER_DEGREE * cos
      const km = Math.sqrt(dx * dx + dy * dy)
      if (km <= bestKm) (bestKm = km, best = ids[i], bestRadius = radii[i] ?? 0)
    }
    // The nearest centroid's zone, if the point is within that zone's reach.
    return best !== undefined && bestKm <= bestRadius ? best : undefined
  }
}

/** The special fare covering a trip between two zones, if any. */
export const specialFareFor = (
  special: SpecialFares,
  pickupZone: number | undefined,
  dropoffZone: number | undefined
): SpecialFare | undefined => {
  if (pickupZone === undefined || dropoffZone === undefined) return undefined
  return special.fares.find(({ between: [a, b] }) =>
    (a.includes(pickupZone) && b.includes(dropoffZone)) || (b.includes(pickupZone) && a.includes(dropoffZone)))
}

/** The special fare's regime in force at a local date (the last that began on or before it; else the first). */
const specialRegime = (fare: SpecialFare, localDate: string | undefined) => {
  const regimes = fare.regimes
  if (localDate === undefined) return regimes[regimes.length - 1]
  let i = regimes.length - 1
  while (i > 0 && (regimes[i]?.effectiveFrom ?? "") > localDate) i--
  return regimes[i]
}

/**
 * A core `Market` priced by a fitted model, carrying the model itself (for evaluation and tools)
 * and the route knowledge the resolvers of `@ridequote/routes` read.
 */
export interface CalibratedMarket extends Market, KnowsRoutes {
  readonly model: MarketModel
  /** The tariff file that prices its providers, if any: its rules, zones and airports. */
  readonly tariffs?: MarketTariffs
  /** The regime in force at an instant (epoch ms; undefined = the newest). */
  readonly regimeAt: (epochMillis: number | undefined) => Regime
  /**
   * The products the tariff prices on flat fares alone (no records; offered only on the trips a
   * flat fare covers), with their basis at the trip's moment whether or not a fare covers the
   * trip: what a listing (`GET /v1/markets`) shows of them.
   */
  readonly flatFareProducts: (trip: Trip) => ReadonlyArray<Omit<ProviderOffer, "distribution"> & { readonly source: OfferSource }>
}

/**
 * The `Market` of a decoded model: local time in the model's time zone, and offers priced on the
 * regime in force at the trip's moment and the season of its local month. Pure; the regime
 * start instants are computed once here, not per quote.
 */
export const calibratedMarket = (model: MarketModel, tariffs?: MarketTariffs): CalibratedMarket => {
  const clock = localClock(model.timeZone)
  const monthAt = localMonthClock(model.timeZone)
  const regimeAt = regimeFinder(model)
  // What each offer publishes in the quote's `offers`, per regime, built once: the provider's
  // own records' period where the model has one, else the window its regime was fitted on.
  const sourcesByRegime: ReadonlyArray<ReadonlyArray<OfferSource>> = model.regimes.map((regime) =>
    model.providers.map((p) => {
      const records = p.records ?? (regime.window === undefined ? undefined : { kind: "trips" as const, ...regime.window })
      return {
        ...(p.product === undefined ? {} : { product: p.product }),
        ...(records === undefined ? {} : { records }),
        // Without a tariff the level is the records': as old as their last day.
        ...(records === undefined ? {} : { level: { asOf: records.to } })
      }
    }))
  const special = model.specialFares
  const zoneOf = special === undefined ? undefined : zoneFinder(special)
  // Every special fare has one end in a few zones (JFK, Newark): a trip with neither end within
  // reach of one of them needs no zone search (the common case, ~10 times cheaper).
  const anchors = special === undefined ? [] : special.zones.filter(([id]) => special.fares.some((f) => f.between[0].includes(id)))
  const nearAnchor = (p: Coordinates): boolean =>
    anchors.some(([, lon, lat, radius]) => greatCircleKm(p, { latitude: lat, longitude: lon }) <= radius)
  const localDateOf = localDateClock(model.timeZone)
  const specialSources = new Map<string, OfferSource>()
  const specialSource = (base: OfferSource, fare: SpecialFare, window: { from: string; to: string }): OfferSource => {
    const key = `${base.product ?? ""}\u0000${fare.id}\u0000${window.from}`
    let source = specialSources.get(key)
    if (source === undefined) {
      source = { ...base, records: { kind: "trips", ...window }, fare: fare.description, level: { asOf: window.to } }
      specialSources.set(key, source)
    }
    return source
  }
  // Tariffs (rules for the money) of this market's providers, where the tariff file has them.
  const tariffed: ReadonlyArray<ProviderTariff | undefined> | undefined = tariffs === undefined
    ? undefined
    : model.providers.map((p) => tariffs.byProvider.get(`${p.provider}/${p.serviceLevel}`))
  // Products the records do not have and the tariff prices on flat fares alone (Chicago's shared
  // ride from the airport cab stands): offered by the market the tariff names (not by a model
  // joining it), on the trips a flat fare covers.
  const flatOnly: ReadonlyArray<{ readonly tariff: ProviderTariff; readonly product: OfferSource }> =
    tariffs === undefined || tariffs.document.market !== model.id
      ? []
      : tariffs.document.tariffs
        .filter((t) => flatFaresOnly(t) && !model.providers.some((p) => p.provider === t.provider && p.serviceLevel === t.serviceLevel))
        .map((tariff) => ({ tariff, product: tariff.product === undefined ? {} : { product: tariff.product } }))
  const digits = minorDigits(model.currency)
  // Trips between two known places (ride-hail quotes between named places): their own prices.
  const pairsOf = placePairPricing(model)
  const chargesOf = chargesCache(digits)
  const sourceOf = offerSourceCache()
  const levels = model.quantileLevels
  const tollsOf = (row: ReadonlyArray<number> | undefined) =>
    row === undefined ? () => 0 : (q: number) => Math.max(0, interpolateQuantile(levels, row, q))
  const specialById = new Map((special?.fares ?? []).map((f) => [f.id, f]))
  /**
   * The tariff's view of one trip (moment, places; once per quote) and the pricing of one
   * tariffed provider on it. `specialTolls`: the tolls of the records' surcharged meter
   * (Newark) covering this trip, if any. Undefined for a provider whose version neither
   * meters, fixes nor levels its price here (then the fitted distribution stands as it is).
   */
  const tariffTrip = (view: TariffTripView | undefined, trip: Trip, regime: Regime, specialTolls: ReadonlyArray<number> | undefined) => {
    if (tariffs === undefined || view === undefined) return undefined
    const { localDate, moment, places } = view
    const fees = feeTotal(regime)
    const meterPlusTolls = tollsOf(specialTolls)
    return (
      tariff: ProviderTariff,
      metered: (q: number) => number,
      source: OfferSource
    ): { distribution: PriceDistribution; source: OfferSource } | undefined => {
      const version = versionAt(tariff, localDate)
      // The records behind the regime in force were priced under the version of their own era.
      const eraDate = regime.window?.to ?? source.records?.to ?? regime.effectiveFrom
      const eraMoment: TripMoment = { ...moment, localDate: eraDate }
      const era = versionAt(tariff, eraDate)
      if (version.level !== undefined) {
        // Ride-hail: the records' own fare (their era's fees taken off), at this version's level.
        if (era.level === undefined) return undefined
        const eraCharges = chargesOf(era, "meter", eraMoment, places, tariffs.holidays)
        const charges = chargesOf(version, "meter", moment, places, tariffs.holidays)
        const e = era.level.factor
        const relative = { ...version.level, factor: version.level.factor / e, low: version.level.low / e, high: version.level.high / e }
        const base = withLevel((q) => eraCharges.fareOf(metered(q) - fees), relative)
        return {
          distribution: { quantile: (q) => charges.total(base(q), 0) },
          source: sourceOf(version, charges, source, undefined, localDate)
        }
      }
      const flat = flatFareFor(version, moment, places, tariffs.holidays)
      if (flat !== undefined) {
        const charges = chargesOf(version, "flat", moment, places, tariffs.holidays)
        const fitted = flat.tollsFrom === undefined ? undefined : specialById.get(flat.tollsFrom)
        const tolls = tollsOf(fitted === undefined ? undefined : specialRegime(fitted, localDate)?.tolls)
        return {
          distribution: { quantile: (q) => charges.total(flat.amount, tolls(q)) },
          source: sourceOf(version, charges, source, flat.name, localDate)
        }
      }
      if (version.meter === undefined || era.meter === undefined) return undefined
      const charges = chargesOf(version, "meter", moment, places, tariffs.holidays)
      // The era's surcharges inside the records' metered part, at this trip's time of day and places.
      let held = 0
      for (const s of era.surcharges) {
        if (tariff.recordsInclude.includes(s.name) && conditionHolds(s.when, eraMoment, places, tariffs.holidays)) held += s.amount ?? 0
      }
      const rebase = meterRebase(era.meter, version.meter, trip.distanceKm, trip.durationMinutes)
      return {
        // A surcharged meter of the records (Newark): the tolls its trips paid, on top of the meter.
        distribution: { quantile: (q) => charges.total(rebase(metered(q) - fees - held), meterPlusTolls(q)) },
        source: sourceOf(version, charges, source, undefined, localDate)
      }
    }
  }
  const holidays: ReadonlySet<string> = tariffs?.holidays ?? new Set()
  /**
   * The flat-fare-only products offered on a trip's date, each with its version in force: from
   * its first version on. With no records behind it, a date before every rule the file knows has
   * no price to give (a metered product's records still say what such a trip was like).
   */
  const flatOnlyInForce = (view: TariffTripView) =>
    flatOnly.flatMap(({ product, tariff }) =>
      view.localDate !== undefined && view.localDate < (tariff.versions[0]?.effectiveFrom ?? "")
        ? []
        : [{ tariff, product, version: versionAt(tariff, view.localDate) }])
  /** The flat-fare-only products a flat fare of the version in force covers on this trip: that fare, exact. */
  const flatOnlyOffers = (view: TariffTripView): ReadonlyArray<ProviderOffer> =>
    flatOnlyInForce(view).flatMap(({ product, tariff, version }) => {
      const flat = flatFareFor(version, view.moment, view.places, holidays)
      if (flat === undefined) return []
      const charges = chargesOf(version, "flat", view.moment, view.places, holidays)
      const price = charges.total(flat.amount, 0)
      return [{
        provider: tariff.provider,
        serviceLevel: tariff.serviceLevel,
        distribution: { quantile: () => price },
        source: sourceOf(version, charges, product, flat.name, view.localDate)
      }]
    })
  return {
    model,
    ...(tariffs === undefined ? {} : { tariffs }),
    regimeAt,
    id: model.id as MarketId,
    name: model.name,
    currency: model.currency,
    routeProfile: model.routeProfile,
    // What the route resolvers of @ridequote/routes learned of this market's roads.
    routeKnowledge: model.routing,
    // One time zone per market: `where` does not matter inside its area.
    localTime: (at) => clock(DateTime.toEpochMillis(at)),
    // Mode is not a feature: metered taxi fares do not depend on booking ahead and the trip
    // records say nothing about it (see docs, "Calibrated markets").
    offers: (trip: Trip): ReadonlyArray<ProviderOffer> => {
      const at = trip.departAt === undefined ? undefined : DateTime.toEpochMillis(trip.departAt)
      const regime = regimeAt(at)
      // The season of the trip's local month (none without a moment: the regime's average month).
      const month = at === undefined ? undefined : monthAt(at)
      const route: RouteKind = trip.routeSource === "resolved" ? "resolved" : "supplied"
      const sources = sourcesByRegime[model.regimes.indexOf(regime)] ?? []
      const fare = special === undefined || zoneOf === undefined || !(nearAnchor(trip.pickup) || nearAnchor(trip.destination))
        ? undefined
        : specialFareFor(special, zoneOf(trip.pickup), zoneOf(trip.destination))
      const fareRegime = fare === undefined ? undefined : specialRegime(fare, at === undefined ? undefined : localDateOf(at))
      const view = tariffs === undefined ? undefined : tariffTripView(tariffs, localDateOf, trip, at)
      const priced = tariffed === undefined
        ? undefined
        : tariffTrip(view, trip, regime, fare?.kind === "meter-plus" ? fareRegime?.tolls : undefined)
      const pairOf = pairsOf?.(trip.pickup, trip.destination, route, trip.distanceKm)
      const fitted = model.providers.map((p, i): ProviderOffer => {
        const metered = priceQuantile(model, regime, i, route, trip.distanceKm, trip.durationMinutes, trip.localTime, month, pairOf?.(i))
        const source = sources[i] ?? {}
        const tariff = tariffed?.[i]
        if (tariff !== undefined && priced !== undefined) {
          const offer = priced(tariff, metered, source)
          if (offer !== undefined) return { provider: p.provider, serviceLevel: p.serviceLevel, ...offer }
        }
        if (fare === undefined || fareRegime === undefined || !fare.providers.includes(p.provider)) {
          return { provider: p.provider, serviceLevel: p.serviceLevel, distribution: { quantile: metered }, source }
        }
        // The tariff replaces the meter: the records' own quantiles (flat), or above the metered median.
        const row = fareRegime.quantiles
        const levels = model.quantileLevels
        const offset = fare.kind === "flat" ? 0 : metered(0.5)
        return {
          provider: p.provider,
          serviceLevel: p.serviceLevel,
          distribution: { quantile: (q: number) => Math.max(0, offset + interpolateQuantile(levels, row, q)) },
          source: specialSource(source, fare, fareRegime.window)
        }
      })
      return flatOnly.length === 0 || view === undefined ? fitted : [...fitted, ...flatOnlyOffers(view)]
    },
    flatFareProducts: (trip) => {
      if (flatOnly.length === 0 || tariffs === undefined) return []
      const at = trip.departAt === undefined ? undefined : DateTime.toEpochMillis(trip.departAt)
      const view = tariffTripView(tariffs, localDateOf, trip, at)
      return flatOnlyInForce(view).map(({ product, tariff, version }) => ({
        provider: tariff.provider,
        serviceLevel: tariff.serviceLevel,
        source: sourceOf(version, chargesOf(version, "flat", view.moment, view.places, holidays), product, undefined, view.localDate)
      }))
    }
  }
}
