/**
 * What an engine prices on: which markets (the calibrated models shipped in
 * `@ridequote/markets`, a folder of one's own, or core's sample market) and how routes are
 * resolved when a request sends no distance and duration (`@ridequote/routes`).
 */
import type { MarketData, RouteResolver } from "@ridequote/core"
import { MarketsLive, SHIPPED_MARKETS_DIR } from "@ridequote/markets"
import type { MarketModelInvalid, MarketsOptions } from "@ridequote/markets"
import { RouteResolverLive } from "@ridequote/routes"
import type { RoutesChoice as ResolverChoice } from "@ridequote/routes"
import { Layer } from "effect"
import { ModelFilesLive } from "./internal/ModelFiles.js"

/**
 * The markets:
 * - `"shipped"` (default): the calibrated models shipped in `@ridequote/markets` (New York
 *   City, Chicago), everywhere else core's sample market;
 * - `"sample"`: core's sample market alone, which serves every coordinate on Earth;
 * - `{ models, fallbackToSample }`: `models` is `"shipped"` or a folder of fitted model files
 *   (`ridequote market fit`); places none of them serves are priced on the sample market when
 *   `fallbackToSample` (default: on for the shipped models, off for a folder of one's own),
 *   else refused with `result:market-not-served`.
 */
export type MarketsChoice =
  | "shipped"
  | "sample"
  | { readonly models: "shipped" | (string & {}); readonly fallbackToSample?: boolean | undefined }

/**
 * How a route is resolved when a request sends neither distance nor duration:
 * `"offline"` (default: an estimator learned per market, no network), `"empirical"` (learned
 * from each market's trip records), or `{ osrm: baseUrl }` (an OSRM-compatible routing server,
 * falling back to the offline estimator when it does not answer in time).
 */
export type RoutesChoice = "offline" | "empirical" | { readonly osrm: string }

/** The markets options of `@ridequote/markets` for a choice. */
export const marketsOptions = (choice: MarketsChoice): MarketsOptions => {
  if (choice === "shipped") return { dir: SHIPPED_MARKETS_DIR, fallbackToSample: true }
  if (choice === "sample") return { fallbackToSample: true }
  const shipped = choice.models === "shipped"
  return { dir: shipped ? SHIPPED_MARKETS_DIR : choice.models, fallbackToSample: choice.fallbackToSample ?? shipped }
}

/** MarketData for a choice; the model files are read and checked when the layer is built. */
export const MarketDataLive = (choice: MarketsChoice = "shipped"): Layer.Layer<MarketData, MarketModelInvalid> =>
  MarketsLive(marketsOptions(choice)).pipe(Layer.provide(ModelFilesLive))

/** `@ridequote/routes`' resolver choice for ours. */
export const resolverChoice = (choice: RoutesChoice): ResolverChoice =>
  choice === "offline"
    ? { _tag: "Offline" }
    : choice === "empirical"
    ? { _tag: "Empirical" }
    : { _tag: "Osrm", baseUrl: choice.osrm }

/** The RouteResolver for a choice. */
export const RoutesLive = (choice: RoutesChoice = "offline"): Layer.Layer<RouteResolver> =>
  RouteResolverLive(resolverChoice(choice))
