/**
 * Forward-in-time validation: for each cut date, fit on the trips before it and score the
 * trips after it (docs/calibration.md, "Forward validation").
 *
 * The scored window runs `horizonMonths` from the cut, and ends early where the full records
 * show a new tariff regime beginning: no model fitted before a tariff change can know the new
 * tariff, and the way a market follows one is a refit (docs, "Refreshing a market").
 */
import type { MarketModel, MarketTariffs } from "@ridequote/markets/model"
import { Either } from "effect"
import type { Evaluation } from "./Evaluation.js"
import { addMonths, forwardSplit } from "./Evaluation.js"
import type { FitFailed, FitOptions } from "./Fit.js"
import { fitMarket, marketRows } from "./Fit.js"
import { DEFAULT_REGIME_OPTIONS, detectRegimes } from "./Regimes.js"
import type { RegimeOptions } from "./Regimes.js"
import type { ObservedTrip } from "./sources/ObservedTrip.js"
import type { TripTable } from "./sources/TripRecords.js"

/** One cut of a forward evaluation: the scored window, the model fitted before it, and its scores. */
export interface ForwardSplitResult {
  readonly cut: string
  readonly end: string
  /** Set when the scored window ends at a regime change rather than after the horizon. */
  readonly endsAtRegime?: string
  readonly model: MarketModel
  readonly evaluation: Evaluation
}

/**
 * For each cut date, fits a model on the trips before it and scores the trips of the next
 * `horizonMonths` (shorter where a new tariff regime begins). Left when any fit fails.
 */
export const forwardEvaluation = (
  table: TripTable,
  options: FitOptions,
  cuts: ReadonlyArray<string>,
  horizonMonths: number,
  /** Score the quotes as served with these tariffs (the rules for the money), not the fit alone. */
  tariffs?: MarketTariffs
): Either.Either<ReadonlyArray<ForwardSplitResult>, FitFailed> => {
  const starts = regimeStarts(marketRows(table.trips).kept, options.regimes ?? DEFAULT_REGIME_OPTIONS)
  return Either.all(
    cuts.map((cut) => {
      const horizon = addMonths(cut, horizonMonths)
      const next = starts.find((s) => s > cut && s < horizon)
      const end = next ?? horizon
      return fitMarket(table, { ...options, before: cut, holdoutFraction: 0 }).pipe(
        Either.map((model): ForwardSplitResult => ({
          cut,
          end,
          ...(next !== undefined ? { endsAtRegime: next } : {}),
          model,
          evaluation: forwardSplit(model, table, cut, end, tariffs)
        }))
      )
    })
  )
}

/**
 * The dates the full records start a new regime on (the first regime's start left out). `market
 * evaluate` asks once per cut, of the same records: the answer is kept with the trip array (which
 * no one changes once read) and its options (detecting them again for each of NYC's four cuts
 * was 6 % of its evaluation).
 */
const regimeStarts = (trips: ReadonlyArray<ObservedTrip>, options: RegimeOptions): ReadonlyArray<string> => {
  const known = startsOf.get(trips)
  if (known !== undefined && known.options === options) return known.starts
  const starts = detectRegimes(trips, options).slice(1).map((r) => r.effectiveFrom)
  startsOf.set(trips, { options, starts })
  return starts
}

const startsOf = new WeakMap<ReadonlyArray<ObservedTrip>, { readonly options: RegimeOptions; readonly starts: ReadonlyArray<string> }>()
