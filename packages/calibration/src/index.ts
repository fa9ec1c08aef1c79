/**
 * @ridequote/calibration — the offline tools: reading trip records, detecting tariff
 * regimes and seasons, fitting a market model, evaluating it forward in time, the reliability plot, and
 * the backtest. Not loaded by `serve`.
 */
export { BacktestQuotesLive, BacktestRequest, backtestRequestId, makeBacktestQuotesLive, runBacktest } from "./internal/Backtest.js"
export type { BacktestProgress, BacktestSummary } from "./internal/Backtest.js"
export { EVALUATION_LEVELS, evaluate, forwardSplit, renderEvaluation, score, targetMisses } from "./internal/Evaluation.js"
export type { Evaluation, RouteEvaluation } from "./internal/Evaluation.js"
export { DEFAULT_HOLDOUT, FitFailed, fitMarket, marketRows, providerSlug } from "./internal/Fit.js"
export type { FitOptions, MarketFitBase, MarketRows } from "./internal/Fit.js"
export { forwardEvaluation } from "./internal/Forward.js"
export { evaluateSpecialFares, fitSpecialFares, NYC_SPECIAL_FARES, renderSpecialFareEvaluation } from "./internal/SpecialFares.js"
export type { SpecialFareEvaluation, SpecialFareRule } from "./internal/SpecialFares.js"
export type { ForwardSplitResult } from "./internal/Forward.js"
export { reliabilitySvg } from "./internal/Plot.js"
export { DEFAULT_REGIME_OPTIONS, detectRegimes, typicalFees } from "./internal/Regimes.js"
export { MIN_MONTH_TRIPS, monthLevel, regimeFactors, seasonalIndex } from "./internal/Seasons.js"
export type { MonthLevel, SeasonalIndex } from "./internal/Seasons.js"
export type { DetectedRegime, RegimeOptions } from "./internal/Regimes.js"
export { measureOsrm, measureResolver, renderRouteAccuracy, routeAccuracy, scoredTrips } from "./internal/RouteAccuracy.js"
export type { CandidateResolver, ResolverAccuracy, RouteAccuracy } from "./internal/RouteAccuracy.js"
export { SOURCE_FORMATS } from "./internal/sources/Formats.js"
export type { SourceFormat } from "./internal/sources/Formats.js"
export { parseZoneCentroids } from "./internal/sources/NycTlc.js"
export type { ZoneCentroids } from "./internal/sources/NycTlc.js"
export type { ObservedTrip } from "./internal/sources/ObservedTrip.js"
export { estimateLevel, hvfhvLevelTrips } from "./internal/LevelEvidence.js"
export { evaluateRules, renderRuleEvaluation, todayRatio } from "./internal/RuleEvaluation.js"
export type { EraEvaluation, RatioQuartiles, RuleCostCheck, TodayRatio } from "./internal/RuleEvaluation.js"
export type { LevelEstimate, LevelTrip } from "./internal/LevelEvidence.js"
export { inferRoute } from "./internal/RouteInference.js"
export { isHeldOut, readTrips, rowKey, TripRecordsInvalid } from "./internal/sources/TripRecords.js"
export type { TripFile, TripTable } from "./internal/sources/TripRecords.js"
export {
  crossValidate,
  foldOf,
  overLine,
  RIDE_HAIL_TARGETS,
  renderRideHailEvaluation,
  rideHailLineMisses,
  rideHailMisses,
  scoreAsShipped
} from "./internal/RideHailEvaluation.js"
export { fitPlacePairs, MIN_PAIR_ROWS, MIN_ROUTE_REQUESTS, PAIR_SHRINK_ROWS, PLACE_RADIUS_KM, ROUTE_SHRINK_REQUESTS } from "./internal/PlacePairsFit.js"
export type { Place } from "./internal/PlacePairsFit.js"
export type { ProductEvaluation, RideHailEvaluation } from "./internal/RideHailEvaluation.js"
export { fitRideHailMarket, MIN_PRODUCT_ROWS, RIDE_HAIL_BUCKETS } from "./internal/RideHailFit.js"
export type { RideHailFitOptions } from "./internal/RideHailFit.js"
export { productReliabilitySvg } from "./internal/Plot.js"
export { FIT_FORMATS } from "./internal/sources/Formats.js"
export type { FitFormat } from "./internal/sources/Formats.js"
export {
  KNOWN_PRODUCTS,
  parsePlaces,
  parseProducts,
  productTable,
  readQuotes,
  timestampInterval
} from "./internal/sources/RideHailQuotes.js"
export type { ObservedQuote, Places, QuoteTable } from "./internal/sources/RideHailQuotes.js"
