/**
 * @ridequote/markets — calibrated markets fitted from observed trip records, behind core's
 * MarketData port: fitting, the versioned model file, held-out evaluation, market selection by
 * pickup, the backtest, and the `market` / `backtest` commands of the `ridequote` program.
 */
export * from "./Area.js"
export * from "./Backtest.js"
export * from "./Bucketing.js"
export * from "./CalibratedMarket.js"
export * from "./Commands.js"
export * from "./Evaluation.js"
export * from "./Fit.js"
export * from "./LocalClock.js"
export * from "./MarketsLive.js"
export * from "./ModelFile.js"
export * from "./Quantiles.js"
export * from "./RouteInference.js"
export * from "./sources/Chicago.js"
export * from "./sources/Csv.js"
export * from "./sources/NycTlc.js"
export * from "./sources/ObservedTrip.js"
export * from "./sources/TripRecords.js"
