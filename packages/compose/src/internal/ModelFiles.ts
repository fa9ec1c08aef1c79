/**
 * The file system the markets are read with: the two calls `@ridequote/markets` makes
 * (list a folder, read a file as text) on `node:fs/promises`, which Node, Bun and Deno all
 * have. The whole Node platform (`@effect/platform-node`, with its HTTP server and cluster
 * peers) would otherwise be a required install of every engine for these two reads.
 */
import { SystemError } from "@effect/platform/Error"
import type { SystemErrorReason } from "@effect/platform/Error"
import * as FileSystem from "@effect/platform/FileSystem"
import { Effect } from "effect"
import type { Layer } from "effect"
import { readdir, readFile } from "node:fs/promises"

const reasonOf = (cause: unknown): SystemErrorReason => {
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined
  return code === "ENOENT" ? "NotFound" : code === "EACCES" || code === "EPERM" ? "PermissionDenied" : "Unknown"
}

const attempt = <A>(method: string, path: string, run: () => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (cause) =>
      new SystemError({
        reason: reasonOf(cause),
        module: "FileSystem",
        method,
        pathOrDescriptor: path,
        description: cause instanceof Error ? cause.message : String(cause),
        cause
      })
  })

/** `readDirectory` and `readFileString` on node:fs; any other call fails as unsupported. */
export const ModelFilesLive: Layer.Layer<FileSystem.FileSystem> = FileSystem.layerNoop({
  readDirectory: (path) => attempt("readDirectory", path, () => readdir(path)),
  readFileString: (path, encoding) =>
    attempt("readFileString", path, async () => new TextDecoder(encoding ?? "utf-8").decode(await readFile(path)))
})
