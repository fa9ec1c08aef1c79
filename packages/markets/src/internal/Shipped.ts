/**
 * Which markets a command prices on, the same rule for `serve` and `backtest`:
 *
 * - no `--markets`: the models shipped inside this package; places they do not serve are
 *   refused (422 result:market-not-served), or priced on the sample market with `--sample-fallback on`;
 * - `--markets DIR`: the models in DIR, with the fallback only if `--sample-fallback on`;
 * - `--markets none`: the sample market alone.
 *
 * The shipped folder is found from this module's own location, so it is the installed
 * package's, whatever the working directory.
 */
import { fileURLToPath } from "node:url"

/** Which markets `MarketsLive` serves (a folder, and whether places none of them serves fall back to the sample market); `marketsSelection` builds it from the command-line options. */
export interface MarketsOptions {
  /** Folder whose *.json files are market models; absent = no calibrated market. */
  readonly dir?: string | undefined
  /** Price places no calibrated market serves on core's sample market. */
  readonly fallbackToSample: boolean
}

/** The folder of models shipped in this package (`models/`), resolved from the installed module's location. */
export const SHIPPED_MARKETS_DIR: string = fileURLToPath(new URL("../../models", import.meta.url))

/** `--markets` value that means "the sample market only". */
export const NO_MARKETS = "none"

/**
 * The markets of a command from `--markets` (absent, `none` or a folder) and `--sample-fallback`,
 * by the rule in this module's comment.
 */
export const marketsSelection = (
  markets: string | undefined,
  sampleFallback: "on" | "off" | undefined
): MarketsOptions => {
  // The sample market's prices are invented: it answers only where the operator asks for it.
  if (markets === undefined) return { dir: SHIPPED_MARKETS_DIR, fallbackToSample: sampleFallback === "on" }
  if (markets.trim().toLowerCase() === NO_MARKETS) return { fallbackToSample: true }
  return { dir: markets, fallbackToSample: sampleFallback === "on" }
}

/** What a log line says the markets are. */
export const describeMarkets = (options: MarketsOptions): string =>
  options.dir === undefined
    ? "sample"
    : `${options.dir === SHIPPED_MARKETS_DIR ? "shipped" : options.dir}${options.fallbackToSample ? " + sample fallback" : ""}`
