/**
 * @ridequote/markets/model — the parts of a market that tools writing or checking market files
 * need, beside what a quote needs (`@ridequote/markets`): the model file's layout and its
 * buckets, the quantile arithmetic a model's percentiles are read with, the tariff file as
 * decoded and priced, local clocks, areas and place pairs. `@ridequote/calibration` fits and
 * evaluates markets with these; nothing here reads records or fits anything.
 */
export { boundingBox, contains } from "./internal/Area.js"
export { bucketOf, DEFAULT_BUCKETS, distanceBand, timeBucket } from "./internal/Bucketing.js"
export { baseFare, calibratedMarket, priceQuantile, regimeFinder } from "./internal/CalibratedMarket.js"
export type { CalibratedMarket, RouteKind } from "./internal/CalibratedMarket.js"
export { localClock, localDateClock, localMidnight, wallClock } from "./internal/LocalClock.js"
export { MarketsLive } from "./internal/MarketsLive.js"
export {
  bucketCount,
  invalid,
  MarketModelInvalid,
  MODEL_FORMAT,
  MODEL_VERSION,
  parseModel,
  parseModelJson,
  renderModel,
  timeBucketCount
} from "./internal/ModelFile.js"
export type {
  BaseFare,
  Buckets,
  MarketModel,
  PlacePairs,
  ProviderModel,
  ProviderResiduals,
  Regime,
  SpecialFare,
  SpecialFares
} from "./internal/ModelFile.js"
export { placeFinder, placePairPricing } from "./internal/PlacePairs.js"
export {
  blendQuantiles,
  interpolateQuantile,
  medianInPlace,
  monotone,
  pinballLoss,
  QUANTILE_LEVELS,
  quantilesAt,
  quantilesInPlace,
  sampleQuantile
} from "./internal/Quantiles.js"
export { describeMarkets, marketsSelection } from "./internal/Shipped.js"
export { changeWindowAt, chargesFor, flatFareFor, versionAt } from "./internal/tariff/Charges.js"
export type { ChangeWindow, PricedTrip } from "./internal/tariff/Charges.js"
export { marketTariffs, meterRebase } from "./internal/tariff/MarketTariffs.js"
export type { MarketTariffs } from "./internal/tariff/MarketTariffs.js"
export { meterAmount, meterReading } from "./internal/tariff/Meter.js"
export { CALIBRATION_BANDS_KM, CALIBRATION_LEVELS } from "./internal/tariff/RouteCalibration.js"
export { slowMinutesOf } from "./internal/tariff/SlowTime.js"
export { decodeTariffJson, isTariffJson, parseTariff } from "./internal/tariff/TariffFile.js"
export type { Meter, ProviderTariff, TariffDocument } from "./internal/tariff/TariffFile.js"
export { meterFor, priceTrip, TARIFF_ROUTE_PROFILE } from "./internal/tariff/TariffMarket.js"
export type { TariffTripView } from "./internal/tariff/TariffMarket.js"
export type { ZoneLocator } from "./internal/tariff/Zones.js"
