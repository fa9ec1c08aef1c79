/** `serve --cors-origin` (repeatable) and RIDEQUOTE_CORS_ORIGINS: checked, normalized, flags before the variable. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either } from "effect"
import { validateCorsOrigins } from "../src/Settings.js"

const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("CORS origins setting", () => {
  it.effect("flags win; else the comma-separated variable; else none (CORS off)", () =>
    Effect.gen(function*() {
      const env = { RIDEQUOTE_CORS_ORIGINS: "https://a.example, http://localhost:5173" }
      expect(yield* validateCorsOrigins(["https://B.example"]).pipe(withEnv(env))).toEqual(["https://b.example"])
      expect(yield* validateCorsOrigins([]).pipe(withEnv(env))).toEqual(["https://a.example", "http://localhost:5173"])
      expect(yield* validateCorsOrigins([]).pipe(withEnv({}))).toEqual([])
    }))

  it.effect("an entry that is not an origin is a setting error naming the flag and the variable", () =>
    Effect.gen(function*() {
      const refused = yield* Effect.either(validateCorsOrigins(["https://a.example/app"]).pipe(withEnv({})))
      expect(Either.isLeft(refused) && refused.left.message).toMatch(/--cors-origin \/ RIDEQUOTE_CORS_ORIGINS/)
    }))
})
