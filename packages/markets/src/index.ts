/**
 * @ridequote/markets — calibrated markets behind core's MarketData port, at run time: the
 * versioned model file, the market of a pickup (areas), the local clock, pricing on the tariff
 * regime in force at a trip's moment, and the shipped models.
 *
 * The layout of market files and the arithmetic they are priced with, for tools that write
 * them, are in `@ridequote/markets/model`. Fitting, record readers, evaluation, the backtest and
 * their commands are a package of their own, `@ridequote/calibration`, which depends on this
 * one and never the reverse.
 */
export { baseFare, calibratedMarket, feeTotal, priceQuantile, regimeFinder } from "./internal/CalibratedMarket.js"
export type { CalibratedMarket, RouteKind } from "./internal/CalibratedMarket.js"
export { localClock, localMidnight, wallClock } from "./internal/LocalClock.js"
export {
  airportsOfMarket,
  DEFAULT_REACH_KM,
  joinMarkets,
  loadMarketModels,
  marketDataOf,
  MarketsLive,
  reachOfMarket
} from "./internal/MarketsLive.js"
export type { MarketsOptions } from "./internal/MarketsLive.js"
export {
  MarketModel,
  MarketModelInvalid,
  MODEL_FORMAT,
  MODEL_VERSION,
  parseModel,
  Regime,
  renderModel
} from "./internal/ModelFile.js"
export type { Area, BaseFare, Buckets, ProviderModel, ProviderResiduals } from "./internal/ModelFile.js"
export { describeMarkets, marketsSelection, NO_MARKETS, SHIPPED_MARKETS_DIR } from "./internal/Shipped.js"
// Markets defined by a published tariff alone (`define` in a tariff file) and the meter they price on.
export { meterAmount, meterReading, sharedCounterKm } from "./internal/tariff/Meter.js"
export type { MeterReading } from "./internal/tariff/Meter.js"
export { changeWindowAt, chargesFor, conditionHolds, flatFareFor, versionAt } from "./internal/tariff/Charges.js"
export type { ChangeWindow, Charges, PricedTrip, TripMoment, TripPlaces } from "./internal/tariff/Charges.js"
export { parseTariff, TariffInvalid } from "./internal/tariff/TariffFile.js"
export type { TariffDocument } from "./internal/tariff/TariffFile.js"
export { CALIBRATION_LEVELS, RESOLVED_ROUTE_RATIOS, routeRatio } from "./internal/tariff/RouteCalibration.js"
export { definedMarket, meterFor, priceTrip, TARIFF_ROUTE_PROFILE } from "./internal/tariff/TariffMarket.js"
export type { DefinedMarket, TariffTripView } from "./internal/tariff/TariffMarket.js"
export type { ServedMarket } from "./internal/MarketsLive.js"
