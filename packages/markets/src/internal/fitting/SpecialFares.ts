/**
 * Special fares read off the records of the rate codes that replace the meter (NYC: 2, the
 * JFK–Manhattan flat fare; 3, Newark: the meter plus the Newark surcharge and tolls). The
 * tariff says which trips a rate code covers (the rules below); the records say what riders
 * paid under it, per tariff regime: the quantiles of the whole price (flat) or of the price
 * above the fitted metered median of the same trip (meter-plus), on each regime's last six
 * months, as for the meter (docs/pricing.md, "Flat fares").
 */
import { priceQuantile } from "../CalibratedMarket.js"
import type { MarketModel, SpecialFare, SpecialFares } from "../ModelFile.js"
import { monotone, quantilesAt } from "../Quantiles.js"
import { wallClock } from "../LocalClock.js"
import { addMonths } from "./Dates.js"
import type { SpecialFareTrip, ZoneCentroids } from "./sources/NycTlc.js"
import { greatCircleKm } from "@ridequote/core"
import type { Coordinates } from "@ridequote/core"
import { isHeldOut } from "./sources/TripRecords.js"

export interface SpecialFareRule {
  readonly id: string
  readonly description: string
  readonly kind: SpecialFare["kind"]
  readonly rateCode: number
  /** One end: these zones; the other: zones of these boroughs. */
  readonly zones: ReadonlyArray<number>
  readonly boroughs: ReadonlyArray<string>
}

/** The TLC's airport tariffs (rate codes 2 and 3) as the yellow-taxi records carry them. */
export const NYC_SPECIAL_FARES: ReadonlyArray<SpecialFareRule> = [
  {
    id: "jfk-manhattan",
    description: "JFK–Manhattan flat fare (TLC rate code 2), with its surcharges and tolls as the records show them",
    kind: "flat",
    rateCode: 2,
    zones: [132],
    boroughs: ["Manhattan"]
  },
  {
    id: "newark",
    description: "Newark Airport: the meter plus the Newark surcharge and tolls (TLC rate code 3)",
    kind: "meter-plus",
    rateCode: 3,
    zones: [1],
    boroughs: ["Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island"]
  }
]

/** A point's zone: the nearest centroid within this distance (a TLC zone is a few km across at most). */
export const ZONE_MAX_KM = 3
/** The smallest reach of a zone around its centroid. */
export const MIN_ZONE_RADIUS_KM = 1
/** Fewest window trips a regime of a special fare needs (fewer: the regime before it prices it). */
export const MIN_SPECIAL_ROWS = 30
const WINDOW_MONTHS = 6

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

export const fitSpecialFares = (
  model: MarketModel,
  trips: ReadonlyArray<SpecialFareTrip>,
  zones: ZoneCentroids,
  boroughs: ReadonlyMap<number, string>,
  options: { readonly holdoutFraction: number; readonly before?: string | undefined; readonly rules?: ReadonlyArray<SpecialFareRule> }
): SpecialFares | undefined => {
  const rules = options.rules ?? NYC_SPECIAL_FARES
  const training = trips.filter((t) =>
    !isHeldOut(t.key, options.holdoutFraction) && (options.before === undefined || t.localDate < options.before))
  const providers = model.providers.map((p) => p.provider)
  const fares: Array<SpecialFare> = []
  for (const rule of rules) {
    const inA = (z: number) => rule.zones.includes(z)
    const inB = (z: number) => rule.boroughs.includes(boroughs.get(z) ?? "") && !rule.zones.includes(z)
    const rows = training.filter((t) =>
      t.rateCode === rule.rateCode && ((inA(t.pickupZone) && inB(t.dropoffZone)) || (inB(t.pickupZone) && inA(t.dropoffZone))))
    const regimes: Array<SpecialFare["regimes"][number]> = []
    model.regimes.forEach((regime, i) => {
      const next = model.regimes[i + 1]?.effectiveFrom
      const mine = rows.filter((t) =>
        (i === 0 || t.localDate >= regime.effectiveFrom) && (next === undefined || t.localDate < next))
      if (mine.length === 0) return
      const last = mine.reduce((d, t) => (t.localDate > d ? t.localDate : d), "")
      const from = addMonths(last, -WINDOW_MONTHS)
      const window = mine.filter((t) => t.localDate > from)
      if (window.length < MIN_SPECIAL_ROWS) return
      const values = window.map((t) => {
        if (rule.kind === "flat") return t.price
        // Above the meter: the price less the fitted metered median of the same trip.
        const median = priceQuantile(model, regime, 0, "supplied", t.distanceKm, t.durationMinutes,
          wallClock(t.hour, t.minute, t.dayOfWeek), Number(t.localDate.slice(5, 7)))(0.5)
        return t.price - median
      })
      const first = window.reduce((d, t) => (t.localDate < d ? t.localDate : d), last)
      regimes.push({
        effectiveFrom: regime.effectiveFrom,
        trainingRows: window.length,
        window: { from: first, to: last },
        quantiles: monotone(quantilesAt(values, model.quantileLevels)).map((v) => round(v, 4))
      })
    })
    if (regimes.length === 0) continue
    fares.push({
      id: rule.id,
      description: rule.description,
      kind: rule.kind,
      rateCode: rule.rateCode,
      between: [
        [...rule.zones],
        [...boroughs.entries()].filter(([z, b]) => rule.boroughs.includes(b) && !rule.zones.includes(z) && zones.has(z))
          .map(([z]) => z).sort((a, b) => a - b)
      ],
      providers,
      regimes
    })
  }
  if (fares.length === 0) return undefined
  // A zone reaches as far as the nearest other centroid (at least 1 km, at most ZONE_MAX_KM).
  const entries = [...zones.entries()].sort((a, b) => a[0] - b[0])
  const radiusOf = (z: number, c: Coordinates): number => {
    let nearest = Number.POSITIVE_INFINITY
    for (const [other, d] of entries) if (other !== z) nearest = Math.min(nearest, greatCircleKm(c, d))
    return Math.min(ZONE_MAX_KM, Math.max(MIN_ZONE_RADIUS_KM, nearest))
  }
  return {
    zones: entries.map(([z, c]) => [z, round(c.longitude, 6), round(c.latitude, 6), round(radiusOf(z, c), 3)] as const),
    maxKm: ZONE_MAX_KM,
    fares
  }
}
