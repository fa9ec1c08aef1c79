/**
 * The docs link check (tools/docs/check-links.mjs, `pnpm docs:links`, a step of .ci/run): every
 * relative link and #anchor of the project's Markdown resolves, and a broken one is reported.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { checkFile, projectFiles, slug } from "../docs/check-links.mjs"

describe("docs links", () => {
  it("slugs headings as GitHub does", () => {
    expect(slug("Route resolution (`@ridequote/routes`)")).toBe("route-resolution-ridequoteroutes")
    expect(slug("The sample market — SAMPLE DATA")).toBe("the-sample-market--sample-data")
    expect(slug("Flat fares (NYC: JFK–Manhattan, Newark)")).toBe("flat-fares-nyc-jfkmanhattan-newark")
    expect(slug("Why the 15 % is held on the inferred route")).toBe("why-the-15--is-held-on-the-inferred-route")
    expect(slug("Each market's rule, and what is exact")).toBe("each-markets-rule-and-what-is-exact")
  })

  it("reports a missing file and a missing anchor, not links in code or to URLs", () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-links-"))
    writeFileSync(join(dir, "other.md"), "# Other page\n\n## A section\n\n## A section\n")
    writeFileSync(
      join(dir, "page.md"),
      [
        "# Page",
        "[ok](other.md#a-section) [ok repeat](other.md#a-section-1) [ok self](#page) [url](https://example.com/x.md)",
        "[gone](missing.md) [bad anchor](other.md#no-such-section)",
        "`[in code](missing-too.md)`",
        "```",
        "[in a fence](missing-three.md)",
        "```"
      ].join("\n")
    )
    const problems = checkFile(join(dir, "page.md"))
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/missing\.md: no such file/)
    expect(problems[1]).toMatch(/other\.md#no-such-section: no heading #no-such-section/)
  })

  it("finds no broken link in README.md, docs/, the packages' and the examples' READMEs", () => {
    const files = projectFiles()
    expect(files.some((file) => file.endsWith(join("docs", "pricing.md")))).toBe(true)
    expect(files.flatMap(checkFile)).toEqual([])
  })
})
