import { describe, expect, it } from "@effect/vitest"
import { SqlError } from "@effect/sql/SqlError"
import { AccountNotFound } from "@ridequote/core"
import { Effect, Schema } from "effect"
import { chunkRows } from "../src/index.js"
import { orUnavailable } from "../src/Unavailable.js"

describe("storage failures become StorageUnavailable", () => {
  it.effect("a SqlError is mapped, with the driver's reason and the operation", () =>
    Effect.gen(function*() {
      const failing = Effect.fail(new SqlError({ cause: new Error("database is locked"), message: "Failed to execute" }))
      const error = yield* Effect.flip(failing.pipe(orUnavailable("token revoke")))
      expect(error._tag).toBe("StorageUnavailable")
      expect(error.message).toBe("storage failed during token revoke: database is locked")
    }))

  it.effect("a failed COMMIT, which @effect/sql raises as a defect, is mapped too", () =>
    Effect.gen(function*() {
      const dying = Effect.die(new SqlError({ cause: new Error("disk I/O error") }))
      const error = yield* Effect.flip(dying.pipe(orUnavailable("audit append")))
      expect(error.message).toContain("disk I/O error")
    }))

  it.effect("a row that does not decode is a storage failure", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Schema.decodeUnknown(Schema.Number)("x").pipe(orUnavailable("account lookup")))
      expect(error._tag).toBe("StorageUnavailable")
    }))

  it.effect("domain errors pass through untouched", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Effect.fail(new AccountNotFound({ message: "no" })).pipe(orUnavailable("x")))
      expect(error._tag).toBe("AccountNotFound")
    }))
})

describe("multi-row statements stay under the bind-parameter limit", () => {
  it("chunks never exceed the limit and keep every row in order", () => {
    for (const [rows, columns, limit] of [[0, 4, 999], [1, 4, 999], [1000, 4, 999], [20_000, 5, 32_766], [7, 4, 3]] as const) {
      const input = Array.from({ length: rows }, (_, i) => i)
      const chunks = chunkRows(input, columns, limit)
      expect(chunks.flat()).toEqual(input)
      for (const chunk of chunks) {
        expect(chunk.length).toBeGreaterThan(0)
        expect(chunk.length * columns <= limit || chunk.length === 1).toBe(true)
      }
    }
  })
})
