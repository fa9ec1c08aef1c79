import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { LIBRARIES } from "../../../tools/packaging/libraries.mjs"
import { isSupportedEffectVersion, SUPPORTED_EFFECT_RANGE, UnsupportedEffectVersion } from "../src/EffectVersion.js"

describe("the supported effect range", () => {
  it("accepts every 3.x release from 3.22.2 on", () => {
    for (const version of ["3.22.2", "3.22.3", "3.22.4", "3.23.0", "3.40.1", "3.22.10"]) {
      expect(isSupportedEffectVersion(version), version).toBe(true)
    }
  })

  it("refuses Effect 4, older 3.x releases and what is not a version", () => {
    for (const version of ["4.1.0", "4.0.0-beta.3", "3.22.1", "3.21.9", "2.4.19", "", "latest"]) {
      expect(isSupportedEffectVersion(version), version).toBe(false)
    }
  })

  it("is the peer range every Effect-native library declares, so the check and the package manager agree", () => {
    // The facade (@ridequote/engine) carries its own Effect in its bundle: it names none.
    const EFFECT_NATIVE = LIBRARIES.filter((library) => library !== "engine")
    expect(EFFECT_NATIVE.length).toBeGreaterThan(5)
    for (const library of LIBRARIES) {
      const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", library, "package.json"), "utf8")) as {
        readonly peerDependencies?: Record<string, string>
      }
      expect(manifest.peerDependencies?.["effect"], library).toBe(EFFECT_NATIVE.includes(library) ? SUPPORTED_EFFECT_RANGE : undefined)
    }
  })

  it("refuses in one line that names both versions and the fix", () => {
    const error = new UnsupportedEffectVersion("4.1.0")
    expect(error.stack).not.toContain("\n")
    expect(error.message).toContain("4.1.0")
    expect(error.message).toContain(SUPPORTED_EFFECT_RANGE)
    expect(error.message).toContain("npm install effect@^3.22.2")
  })
})

describe("UnsupportedEffectVersion", () => {
  it("keeps the version found, under its own name", () => {
    const error = new UnsupportedEffectVersion("4.1.0")
    expect(error.found).toBe("4.1.0")
    expect(error.name).toBe("UnsupportedEffectVersion")
    expect(error).toBeInstanceOf(Error)
    expect(Object.keys(error)).toEqual([])
  })
})
