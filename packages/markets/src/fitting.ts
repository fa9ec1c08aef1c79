/**
 * @ridequote/markets/fitting — the offline tools: reading trip records, detecting tariff
 * regimes and seasons, fitting a market model, evaluating it forward in time, the reliability plot, and
 * the backtest. Not loaded by `serve`.
 */
export { BacktestQuotesLive, BacktestRequest, backtestRequestId, makeBacktestQuotesLive, runBacktest } from "./internal/fitting/Backtest.js"
export type { BacktestProgress, BacktestSummary } from "./internal/fitting/Backtest.js"
export { EVALUATION_LEVELS, evaluate, forwardSplit, renderEvaluation, score, targetMisses } from "./internal/fitting/Evaluation.js"
export type { Evaluation, RouteEvaluation } from "./internal/fitting/Evaluation.js"
export { DEFAULT_HOLDOUT, FitFailed, fitMarket, marketRows, providerSlug } from "./internal/fitting/Fit.js"
export type { FitOptions, MarketFitBase, MarketRows } from "./internal/fitting/Fit.js"
export { forwardEvaluation } from "./internal/fitting/Forward.js"
export { evaluateSpecialFares, fitSpecialFares, NYC_SPECIAL_FARES, renderSpecialFareEvaluation } from "./internal/fitting/SpecialFares.js"
export type { SpecialFareEvaluation, SpecialFareRule } from "./internal/fitting/SpecialFares.js"
export type { ForwardSplitResult } from "./internal/fitting/Forward.js"
export { reliabilitySvg } from "./internal/fitting/Plot.js"
export { DEFAULT_REGIME_OPTIONS, detectRegimes, typicalFees } from "./internal/fitting/Regimes.js"
export { MIN_MONTH_TRIPS, monthLevel, regimeFactors, seasonalIndex } from "./internal/fitting/Seasons.js"
export type { MonthLevel, SeasonalIndex } from "./internal/fitting/Seasons.js"
export type { DetectedRegime, RegimeOptions } from "./internal/fitting/Regimes.js"
export { measureOsrm, measureResolver, renderRouteAccuracy, routeAccuracy, scoredTrips } from "./internal/fitting/RouteAccuracy.js"
export type { CandidateResolver, ResolverAccuracy, RouteAccuracy } from "./internal/fitting/RouteAccuracy.js"
export { SOURCE_FORMATS } from "./internal/fitting/sources/Formats.js"
export type { SourceFormat } from "./internal/fitting/sources/Formats.js"
export { parseZoneCentroids } from "./internal/fitting/sources/NycTlc.js"
export type { ZoneCentroids } from "./internal/fitting/sources/NycTlc.js"
export type { ObservedTrip } from "./internal/fitting/sources/ObservedTrip.js"
export { estimateLevel, hvfhvLevelTrips } from "./internal/fitting/LevelEvidence.js"
export { evaluateRules, renderRuleEvaluation, todayRatio } from "./internal/fitting/RuleEvaluation.js"
export type { EraEvaluation, RatioQuartiles, RuleCostCheck, TodayRatio } from "./internal/fitting/RuleEvaluation.js"
export type { LevelEstimate, LevelTrip } from "./internal/fitting/LevelEvidence.js"
export { inferRoute } from "./internal/fitting/RouteInference.js"
export { isHeldOut, readTrips, rowKey, TripRecordsInvalid } from "./internal/fitting/sources/TripRecords.js"
export type { TripFile, TripTable } from "./internal/fitting/sources/TripRecords.js"
export {
  crossValidate,
  foldOf,
  overLine,
  RIDE_HAIL_TARGETS,
  renderRideHailEvaluation,
  rideHailLineMisses,
  rideHailMisses,
  scoreAsShipped
} from "./internal/fitting/RideHailEvaluation.js"
export { fitPlacePairs, MIN_PAIR_ROWS, MIN_ROUTE_REQUESTS, PAIR_SHRINK_ROWS, PLACE_RADIUS_KM, ROUTE_SHRINK_REQUESTS } from "./internal/fitting/PlacePairsFit.js"
export type { Place } from "./internal/fitting/PlacePairsFit.js"
export type { ProductEvaluation, RideHailEvaluation } from "./internal/fitting/RideHailEvaluation.js"
export { fitRideHailMarket, MIN_PRODUCT_ROWS, RIDE_HAIL_BUCKETS } from "./internal/fitting/RideHailFit.js"
export type { RideHailFitOptions } from "./internal/fitting/RideHailFit.js"
export { productReliabilitySvg } from "./internal/fitting/Plot.js"
export { FIT_FORMATS } from "./internal/fitting/sources/Formats.js"
export type { FitFormat } from "./internal/fitting/sources/Formats.js"
export {
  KNOWN_PRODUCTS,
  parsePlaces,
  parseProducts,
  productTable,
  readQuotes,
  timestampInterval
} from "./internal/fitting/sources/RideHailQuotes.js"
export type { ObservedQuote, Places, QuoteTable } from "./internal/fitting/sources/RideHailQuotes.js"
