/**
 * A market defined by its published tariff alone (`define` in a tariff file): no trip records.
 *
 * The file gives the money (meter, flat fares, surcharges, fees, minimum) and the market's
 * name, area, time zone and currency; the trip comes from core's quote (its distance and
 * duration, supplied by the caller or resolved by the route resolver). What the rule cannot
 * know of a trip is how its time was spent, and, for a resolved route, how long the real road
 * is; those are the spread of the price distribution:
 *
 *   supplied route:  fare(q) = meter(distance, duration, slow time at level q)
 *   resolved route:  fare(q) = meter(distance, duration, median slow time, exact) × R_band(q)
 *   price(q)         = charges(fare(q))  (surcharges, minimum, fees, as the tariff says)
 *   flat fare:       price(q) = charges(amount)  (exact; tolls passed on are not estimated)
 *
 * Slow time (the minutes below the crossover speed that a "below-speed" meter charges as
 * time) is read from `SlowTime` at its 10th/50th/90th percentiles and spread across levels on
 * the normal scale; R is the calibrated ratio real fare ÷ rule(resolved route) of
 * `RouteCalibration` (NYC and Chicago records), which holds the route's error, the slow time
 * and the waiting together. Quantiles are evaluated on a fixed grid of levels, made
 * non-decreasing, and interpolated between: they never cross.
 */
import { DateTime } from "effect"
import type { LocalTime, Market, MarketNotServed, OfferSource, PriceDistribution, ProviderOffer, RouteProfile, Trip } from "@ridequote/core"
import { minorDigits, noRuleForDate, noRuleInChangeWindow, noRuleSinceReplaced, normalQuantile, pickupNotServed, SAMPLE_ROUTE_PROFILE } from "@ridequote/core"
import { contains } from "../Area.js"
import { localClock, localDateClock } from "../LocalClock.js"
import type { Area } from "../ModelFile.js"
import { changeWindowAt, chargesCache, chargesFor, conditionHolds, flatFareFor, versionAt } from "./Charges.js"
import type { ChangeWindow } from "./Charges.js"
import { changeWindowNote, marketTariffs, offerSourceCache, tariffTripView, windowOfferSource } from "./MarketTariffs.js"
import type { MarketTariffs, TariffTripView, WindowSide } from "./MarketTariffs.js"

export type { TariffTripView } from "./MarketTariffs.js"
import { meterAmount, meterReading } from "./Meter.js"
import { routeRatio } from "./RouteCalibration.js"
import { slowMinutesOf } from "./SlowTime.js"
import type { Meter, ProviderTariff, TariffDocument, TariffHead, TariffVersion } from "./TariffFile.js"
import { zoneLocator } from "./Zones.js"

/**
 * How the route resolvers estimate routes in a market with no records of its own: core's
 * generic city profile (detour factor 1.35, door-to-door speeds by hour; sources in
 * docs/route-resolution.md), with speeds that rise with the trip's length. The factors are the
 * inverse of real ÷ generic duration, median of the bundled NYC (GPS, 2016) and Chicago
 * (2013–2016) records pooled, at the middle of each band of resolved distance: 0–2 km 1.21,
 * 2–5 km 1.04, 5–10 km 0.85, 10–20 km 0.64, 20–40 km 0.485
 * (tools/markets/research/resolved-durations-by-distance.mjs). Without them a 65 km airport run
 * resolved to 186 minutes. The route calibration was measured with this profile.
 */
export const TARIFF_ROUTE_PROFILE: RouteProfile = {
  ...SAMPLE_ROUTE_PROFILE,
  speedFactorByKm: [[1, 0.83], [3.5, 0.96], [7.5, 1.18], [15, 1.56], [30, 2.06]]
}

/** The levels the distribution is evaluated at; between them it is linear, beyond them flat. */
const GRID = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99] as const
/** z of the 90th percentile: the slow-time p10 and p90 sit at ∓ this on the normal scale. */
const Z90 = normalQuantile(0.9)
const Z_GRID = GRID.map((q) => normalQuantile(q))

/** A core `Market` defined by a tariff file, with the area it serves and the file it came from. */
export interface DefinedMarket extends Market {
  /** The whole file (for a market built by `lazyDefinedMarket`: decoded when first read). */
  readonly document: TariffDocument
  /** Its rules indexed (likewise). */
  readonly tariffs: MarketTariffs
  /** The file's head: `define`, zones and airports, known without the rules. */
  readonly head: TariffHead
  /** The market's own area (the file's `define.area`): what orders overlapping markets. */
  readonly area: Area
  /** The file's `define.timeZone`: the market's local clock. */
  readonly timeZone: string
  /** Whether the market serves a pickup: inside its area, or in a zone it also serves. */
  readonly serves: (p: { readonly latitude: number; readonly longitude: number }) => boolean
}


/** The meter in force for a trip: the first variant whose condition holds, else the version's own. */
export const meterFor = (version: TariffVersion, view: TariffTripView, holidays: ReadonlySet<string>): { meter: Meter | undefined; variant?: string } => {
  for (const v of version.meterVariants) {
    if (conditionHolds(v.when, view.moment, view.places, holidays)) return { meter: v.meter, variant: v.name }
  }
  return { meter: version.meter }
}

/** Minutes below the crossover at quantile level `q`: the p10/p50/p90 of SlowTime, linear on the normal scale. */
const slowAt = (meter: Meter, distanceKm: number, durationMinutes: number): ((z: number) => number) => {
  if (meter.time.runs !== "below-speed") return () => 0
  const crossover = meter.time.crossoverKmh ?? 1
  const p10 = slowMinutesOf(distanceKm, durationMinutes, crossover, "p10")
  const p50 = slowMinutesOf(distanceKm, durationMinutes, crossover, "p50")
  const p90 = slowMinutesOf(distanceKm, durationMinutes, crossover, "p90")
  return (z) => {
    const s = z < 0 ? p50 + ((p50 - p10) * z) / Z90 : p50 + ((p90 - p50) * z) / Z90
    return Math.min(durationMinutes, Math.max(0, s))
  }
}

/**
 * The meter's fare at each grid level for a trip: by slow time for a supplied route, by the
 * calibrated route ratio for a resolved one. Non-decreasing across the grid.
 */
export const meterFareGrid = (
  meter: Meter,
  distanceKm: number,
  durationMinutes: number,
  routeSource: Trip["routeSource"]
): ReadonlyArray<number> => {
  const slow = slowAt(meter, distanceKm, durationMinutes)
  const fares = routeSource === "resolved"
    // A real fare is never under the initial charge, however short the real route was.
    ? GRID.map((q) => Math.max(meter.initial, meterAmount(meter, meterReading(meter, distanceKm, durationMinutes, slow(0)), true) * routeRatio(distanceKm, q)))
    : Z_GRID.map((z) => meterAmount(meter, meterReading(meter, distanceKm, durationMinutes, slow(z))))
  let floor = 0
  return fares.map((f) => (floor = Math.max(floor, Number.isFinite(f) ? f : 0)))
}

/** A distribution read off grid values: linear between levels, flat beyond the outer ones. */
export const gridDistribution = (values: ReadonlyArray<number>): PriceDistribution => ({
  quantile: (q) => {
    if (!(q > GRID[0])) return values[0] ?? 0
    for (let i = 1; i < GRID.length; i++) {
      const hi = GRID[i] ?? 1
      if (q <= hi) {
        const lo = GRID[i - 1] ?? 0, v0 = values[i - 1] ?? 0, v1 = values[i] ?? v0
        return v0 + ((q - lo) / (hi - lo)) * (v1 - v0)
      }
    }
    return values[values.length - 1] ?? 0
  }
})

type ChargesOf = ReturnType<typeof chargesCache>

/** Whether one version has a price for a trip: a meter in force, or one of its flat fares covering it. */
const versionCovers = (tariffs: MarketTariffs, version: TariffVersion, view: TariffTripView): boolean =>
  version.meter !== undefined || flatFareFor(version, view.moment, view.places, tariffs.holidays) !== undefined

/**
 * Whether a provider's rule has a price for a trip: a meter in force, or one of its flat fares
 * covering the trip. A version of flat fares alone (an airport's published fixed fares, where
 * the city's meter is not known) has none for any other trip. Inside a change window (a
 * version's `changedAfter`) both versions must have one: either may have been in force that
 * day, and one side's price alone would be a guess for part of the window (Rome's meter of
 * 2021 beside a 2024 rule whose meter was not read); such a trip is refused (`windowGap`).
 */
export const coversTrip = (tariffs: MarketTariffs, tariff: ProviderTariff, view: TariffTripView): boolean => {
  const sides = windowSides(tariffs, tariff, view)
  return sides === undefined ? versionCovers(tariffs, versionAt(tariff, view.localDate), view) : sides.earlier && sides.later
}

/** Where the trip's date falls in a change window of `tariff`: the window, and which of its two versions price the trip. */
const windowSides = (tariffs: MarketTariffs, tariff: ProviderTariff, view: TariffTripView) => {
  const window = changeWindowAt(tariff, view.localDate)
  return window === undefined
    ? undefined
    : { window, earlier: versionCovers(tariffs, window.earlier, view), later: versionCovers(tariffs, window.later, view) }
}

/**
 * Where a trip's date falls in a change window of `tariff` and only one of the two versions
 * prices it: the window and the side that does (what the refusal names).
 */
export const windowGap = (
  tariffs: MarketTariffs,
  tariff: ProviderTariff,
  view: TariffTripView
): Parameters<typeof noRuleInChangeWindow>[2] | undefined => {
  const sides = windowSides(tariffs, tariff, view)
  return sides === undefined || sides.earlier === sides.later
    ? undefined
    : { from: sides.window.from, until: sides.window.until, pricedBy: sides.earlier ? "earlier" : "later" }
}

/** One version's price for a trip (see `priceTrip`). */
export interface VersionPrice {
  readonly version: TariffVersion
  readonly distribution: PriceDistribution
  readonly charges: ReturnType<typeof chargesFor>
  readonly fare?: string
  /** The price when a fixed flat fare set it. */
  readonly fixed?: number
}

const priceVersion = (
  tariffs: MarketTariffs,
  version: TariffVersion,
  trip: Pick<Trip, "distanceKm" | "durationMinutes" | "routeSource">,
  view: TariffTripView,
  chargesOf: ChargesOf
): VersionPrice => {
  const flat = flatFareFor(version, view.moment, view.places, tariffs.holidays)
  if (flat !== undefined && flat.kind !== "cap") {
    const charges = chargesOf(version, "flat", view.moment, view.places, tariffs.holidays)
    const price = charges.total(flat.amount, 0)
    const exact: PriceDistribution = { quantile: () => price }
    if (!charges.unconfirmed) return { version, charges, fare: flat.name, fixed: price, distribution: exact }
    // An item the rule leaves open on this fare: the price with and without it, spanned.
    const without = chargesOf(version, "flat", view.moment, view.places, tariffs.holidays, true).total(flat.amount, 0)
    return { version, charges, fare: flat.name, fixed: price, distribution: spanning({ quantile: () => without }, exact) }
  }
  const { meter, variant } = meterFor(version, view, tariffs.holidays)
  const charges = chargesOf(version, "meter", view.moment, view.places, tariffs.holidays)
  // No meter: a version of flat fares alone, offered only where one covers the trip (coversTrip).
  const fares = meter === undefined ? [0] : meterFareGrid(meter, trip.distanceKm, trip.durationMinutes, trip.routeSource)
  // A capped fare (the lower of the meter and the zone's rate): the meter, never above the cap.
  const capped = flat === undefined ? fares : fares.map((f) => Math.min(f, flat.amount))
  const grid = gridDistribution(capped.map((f) => charges.total(f, 0)))
  const open = charges.unconfirmed ? chargesOf(version, "meter", view.moment, view.places, tariffs.holidays, true) : undefined
  const distribution = open === undefined ? grid : spanning(gridDistribution(capped.map((f) => open.total(f, 0))), grid)
  const fare = flat?.name ?? variant
  return { version, charges, distribution, ...(fare === undefined ? {} : { fare }) }
}

/**
 * Two versions' prices as one distribution, for a trip whose date falls where either may have
 * been in force: below the median the lower of the two at each level, above it the higher, at
 * the median halfway between their medians. Its p5 is the lower p5 and its p95 the higher p95
 * (two fixed fares of 50 and 55: p5 50, p50 52.5, p95 55). Non-decreasing where both are.
 */
export const spanning = (a: PriceDistribution, b: PriceDistribution): PriceDistribution => ({
  quantile: (q) => {
    const x = a.quantile(q), y = b.quantile(q)
    return q < 0.5 ? Math.min(x, y) : q > 0.5 ? Math.max(x, y) : (x + y) / 2
  }
})

/** How a trip dated inside a change window was priced: both sides and the window. */
export interface WindowPricing {
  readonly window: ChangeWindow
  readonly earlier: WindowSide
  readonly later: WindowSide
}

/**
 * The price of one provider's tariff for one trip, with what the offer publishes. A version
 * of flat fares alone prices only the trips they cover (`coversTrip`); a market does not offer
 * it for others. Inside a change window (`changedAfter`: the day the rule changed is not
 * known) the trip is priced on both versions and the distribution spans the two (`spanning`);
 * `version` is then the earlier where it has a price for the trip, else the later, and
 * `window` says how.
 */
export const priceTrip = (
  tariffs: MarketTariffs,
  tariff: ProviderTariff,
  trip: Pick<Trip, "distanceKm" | "durationMinutes" | "routeSource">,
  view: TariffTripView,
  digits: number,
  /** Where a market prices many trips: `chargesCache(digits)`, so trips paying the same charges share them. */
  chargesOf: ChargesOf = (v, kind, moment, places, holidays, confirmedOnly) => chargesFor(v, kind, moment, places, holidays, digits, confirmedOnly)
): VersionPrice & { readonly window?: WindowPricing } => {
  const window = changeWindowAt(tariff, view.localDate)
  if (window === undefined) return priceVersion(tariffs, versionAt(tariff, view.localDate), trip, view, chargesOf)
  const side = (version: TariffVersion): { side: WindowSide; price?: VersionPrice } => {
    if (!versionCovers(tariffs, version, view)) return { side: { version, covers: false } }
    const price = priceVersion(tariffs, version, trip, view, chargesOf)
    return { side: { version, covers: true, ...(price.fixed === undefined ? {} : { fixed: price.fixed }) }, price }
  }
  const earlier = side(window.earlier), later = side(window.later)
  // Offered only where both have a price (coversTrip); otherwise priced on the one that has,
  // or on the earlier, as a version outside any window would be, for a caller that asks anyway.
  const basis = earlier.price ?? later.price ?? priceVersion(tariffs, window.earlier, trip, view, chargesOf)
  const distribution = earlier.price !== undefined && later.price !== undefined
    ? spanning(earlier.price.distribution, later.price.distribution)
    : basis.distribution
  return { ...basis, distribution, window: { window, earlier: earlier.side, later: later.side } }
}

/** The market of a tariff file with `define`. Pure; undefined for a file without `define`. */
export const definedMarket = (document: TariffDocument): DefinedMarket | undefined => {
  const definition = document.define
  if (definition === undefined) return undefined
  return pricedMarket({ ...document, define: definition }, document)
}

/**
 * The market of a tariff file from its head, its rules decoded by `load` when a trip or a
 * listing first needs them (once). Where it serves, its clock, currency, zones and airports
 * are the head's. `load` failing is a defect: a folder read this way is one whose files the
 * tests decode in full (the shipped one).
 */
export const lazyDefinedMarket = (head: TariffHead, load: () => TariffDocument): DefinedMarket => {
  let market: DefinedMarket | undefined
  const full = (): DefinedMarket => (market ??= pricedMarket(head, load()))
  const clock = localClock(head.define.timeZone)
  const also = head.define.alsoServes
  // Pickups beyond the area are tested against the zones it also serves only (SFO), not every zone.
  let alsoLocate: ((p: { readonly latitude: number; readonly longitude: number }) => ReadonlySet<string>) | undefined
  const alsoZones = () => {
    const names = new Set(also.flatMap((z) => {
      const zone = head.zones[z]
      return zone?.kind === "union" ? [z, ...zone.of] : [z]
    }))
    return Object.fromEntries(Object.entries(head.zones).filter(([name]) => names.has(name)))
  }
  return {
    id: head.market,
    name: head.define.name,
    currency: head.currency,
    routeProfile: TARIFF_ROUTE_PROFILE,
    timeZone: head.define.timeZone,
    area: head.define.area,
    head,
    get document() {
      return full().document
    },
    get tariffs() {
      return full().tariffs
    },
    serves: (p) => contains(head.define.area, p) || (also.length > 0 && also.some((z) => (alsoLocate ??= zoneLocator(alsoZones()))(p).has(z))),
    localTime: (at): LocalTime => clock(DateTime.toEpochMillis(at)),
    offers: (trip) => full().offers(trip),
    unoffered: (trip: Trip) => full().unoffered?.(trip)
  }
}

/** The market of a decoded file; `head` is its `define`, zones and airports. */
const pricedMarket = (head: TariffHead, document: TariffDocument): DefinedMarket => {
  const definition = head.define
  const tariffs = marketTariffs(document)
  const clock = localClock(definition.timeZone)
  const localDateOf = localDateClock(definition.timeZone)
  const digits = minorDigits(document.currency)
  const sourceOf = offerSourceCache()
  const chargesOf = chargesCache(digits)
  const products: ReadonlyArray<OfferSource> = document.tariffs.map((t) => (t.product === undefined ? {} : { product: t.product }))
  const also = definition.alsoServes
  const serves = (p: { readonly latitude: number; readonly longitude: number }): boolean =>
    contains(definition.area, p) || (also.length > 0 && also.some((z) => tariffs.locate(p).has(z)))
  const viewOf = (trip: Trip): TariffTripView =>
    tariffTripView(tariffs, localDateOf, trip, trip.departAt === undefined ? undefined : DateTime.toEpochMillis(trip.departAt))
  // A market whose file refuses trips before its earliest rule: the first day any tariff knows.
  const knownFrom = definition.beforeFirstRule === "refuse"
    ? document.tariffs.map((t) => t.versions[0]?.effectiveFrom ?? "").reduce((a, b) => (b < a ? b : a))
    : undefined
  /** The first zone of the trip's pick-up where the file prices no pick-ups, with why. */
  const notServedAt = definition.pickupsNotServed.length === 0
    ? () => undefined
    : (view: TariffTripView) => definition.pickupsNotServed.find((p) => view.places.pickup.has(p.zone))
  /**
   * Why the market prices nothing for a trip whatever its tariffs say: a pick-up where it prices
   * none, or a date before the first rule of a refusing market. One rule for `offers` (nothing)
   * and `unoffered` (the refusal).
   */
  const marketRefusal = (view: TariffTripView): MarketNotServed | undefined => {
    const notServed = notServedAt(view)
    if (notServed !== undefined) return pickupNotServed(document.market, notServed.zone, notServed.why)
    const date = view.localDate
    return knownFrom !== undefined && date !== undefined && date < knownFrom ? noRuleForDate(document.market, date, knownFrom) : undefined
  }
  /** Per tariff, its last version when that was replaced by a rule not read (`replacedFrom`). */
  const replaced = document.tariffs.map((t) => {
    const last = t.versions[t.versions.length - 1]
    return last?.replacedFrom === undefined ? undefined : { effectiveFrom: last.effectiveFrom, replacedFrom: last.replacedFrom }
  })
  /** Tariff `i`'s replaced last version when the trip is dated on or after its replacement. */
  const replacedOn = (i: number, localDate: string | undefined) => {
    const r = replaced[i]
    return r !== undefined && localDate !== undefined && localDate >= r.replacedFrom ? r : undefined
  }
  return {
    timeZone: definition.timeZone,
    id: document.market,
    name: definition.name,
    currency: document.currency,
    routeProfile: TARIFF_ROUTE_PROFILE,
    document,
    tariffs,
    head,
    area: definition.area,
    serves,
    localTime: (at): LocalTime => clock(DateTime.toEpochMillis(at)),
    // Why a trip it offers nothing for is not served, where it can say more than "no rule for
    // the trip": dated before the first rule of a refusing market, after its last rule was
    // replaced by one not read, or in a change window where only one of the two rules prices it.
    unoffered: (trip: Trip) => {
      const view = viewOf(trip)
      const refused = marketRefusal(view)
      if (refused !== undefined) return refused
      const date = view.localDate
      if (date === undefined) return undefined
      for (let i = 0; i < replaced.length; i++) {
        const r = replacedOn(i, date)
        if (r !== undefined) return noRuleSinceReplaced(document.market, date, r)
      }
      for (const tariff of document.tariffs) {
        const gap = windowGap(tariffs, tariff, view)
        if (gap !== undefined) return noRuleInChangeWindow(document.market, date, gap)
      }
      return undefined
    },
    offers: (trip: Trip): ReadonlyArray<ProviderOffer> => {
      const view = viewOf(trip)
      // Its local date, read once with the view: nothing for a trip the market refuses as a whole.
      if (marketRefusal(view) !== undefined) return []
      const out: Array<ProviderOffer> = []
      document.tariffs.forEach((tariff, i) => {
        if (replacedOn(i, view.localDate) !== undefined || !coversTrip(tariffs, tariff, view)) return
        const priced = priceTrip(tariffs, tariff, trip, view, digits, chargesOf)
        const w = priced.window
        out.push({
          provider: tariff.provider,
          serviceLevel: tariff.serviceLevel,
          distribution: priced.distribution,
          source: w === undefined || view.localDate === undefined
            ? sourceOf(priced.version, priced.charges, products[i], priced.fare, view.localDate)
            : windowOfferSource(priced.version, priced.charges, products[i], priced.fare,
              changeWindowNote(w.window, w.earlier, w.later, view.localDate, document.currency))
        })
      })
      return out
    }
  }
}

