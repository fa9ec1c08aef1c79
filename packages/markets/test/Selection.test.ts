/**
 * One default for `serve` and `backtest`: the shipped markets without the sample fallback, found
 * from the installed package whatever the working directory; `--markets DIR` and
 * `--markets none` as documented.
 */
import { describe, expect, it } from "@effect/vitest"
import { marketsSelection, SHIPPED_MARKETS_DIR } from "@ridequote/markets"


describe("which markets a command prices on", () => {
  it("no --markets: the shipped models, the sample fallback only when turned on", () => {
    expect(marketsSelection(undefined, undefined)).toEqual({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false })
    expect(marketsSelection(undefined, "on")).toEqual({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: true })
    expect(marketsSelection(undefined, "off")).toEqual({ dir: SHIPPED_MARKETS_DIR, fallbackToSample: false })
  })

  it("--markets DIR: DIR's models, the fallback only when asked for; --markets none: the sample market only", () => {
    expect(marketsSelection("my-markets", undefined)).toEqual({ dir: "my-markets", fallbackToSample: false })
    expect(marketsSelection("my-markets", "on")).toEqual({ dir: "my-markets", fallbackToSample: true })
    expect(marketsSelection("none", undefined)).toEqual({ fallbackToSample: true })
  })
})
