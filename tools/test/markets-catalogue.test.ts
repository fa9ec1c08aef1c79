/**
 * The market catalogue (docs/markets.md) and its map are generated from the tariff files
 * (tools/markets/catalogue.mjs): the checked-in copies are what the generator writes today,
 * and its date is an argument, never the wall clock.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const SCRIPT = "tools/markets/catalogue.mjs"

describe("the market catalogue", () => {
  it("docs/markets.md and docs/img/markets-map.svg are what pnpm docs:markets generates (run it and commit when this fails)", () => {
    const check = spawnSync(process.execPath, [SCRIPT, "--check"], { encoding: "utf8" })
    expect(check.stderr).toBe("")
    expect(check.status).toBe(0)
  })

  it("reads the rules at the date given, and the same date gives the same output", async () => {
    const { render } = await import("../markets/catalogue.mjs")
    const older = render({ at: "2024-01-01" })
    expect(older.date).toBe("2024-01-01")
    expect(older.markdown).toContain("Rules in force on **2024-01-01**")
    // Hong Kong on 2024-01-01 was on its 2022 scale, not the 2024 one.
    expect(older.markdown).toMatch(/\| `hong-kong` .*\(from 2022-07-17\)/)
    expect(render({ at: "2024-01-01" }).markdown).toBe(older.markdown)
    // The airports of the files with their fares, and the ACI list marks what is served.
    const today = render({ at: "2026-12-06" })
    expect(today.markdown).toMatch(/\*\*JFK\*\* New York John F\. Kennedy International: yellow-taxi: JFK–Manhattan flat fare USD 70\.00/)
    expect(today.markdown).toMatch(/\| 4 \| HND \| Tokyo Haneda \| Tokyo \| 85\.9 \| `tokyo` \|/)
    expect(today.markdown).toMatch(/\| 1 \| ATL \| .* \| `atlanta` \|/)
    expect(today.markdown).toMatch(/\| 5 \| LHR \| .* \| not served: \[why\]\(..\/packages\/markets\/models\/sources\/london.md\) \|/)
    expect(today.svg).toContain('class="airport-served"><title>JFK New York John F. Kennedy International: served by nyc</title>')
    expect(today.svg).toContain("<title>LHR London Heathrow (ACI 2024 #5): not served</title>")
  })

  it("the README's two lines on what is served give the catalogue's counts", () => {
    const counts = /(\d+) markets in (\d+) currencies[;,] (\d+) of ACI's 50 busiest airports/
    const catalogue = counts.exec(readFileSync("docs/markets.md", "utf8"))
    const readme = counts.exec(readFileSync("README.md", "utf8").replace(/\s+/g, " "))
    expect(catalogue).not.toBeNull()
    expect(readme?.slice(1, 4)).toEqual(catalogue?.slice(1, 4))
  })

  it("refuses a date that is not YYYY-MM-DD", () => {
    expect(() => execFileSync(process.execPath, [SCRIPT, "--at", "today", "--check"], { stdio: "pipe" })).toThrow()
  })
})
