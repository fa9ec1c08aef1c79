/**
 * GET /docs: the interactive API reference (Scalar), built from `RidequoteApi`'s OpenAPI
 * document. Two things differ from `HttpApiScalar.layer`:
 * - it is self-contained: Scalar's script is inlined (as HttpApiScalar does) and its default
 *   web fonts, which it fetches from Scalar's own font host, are turned off in favour of the
 *   system's fonts, so the page works offline and tells no third party who reads our docs;
 *   Scalar's telemetry is off for the same reason;
 * - it is served compressed: the page is 3.3 MB (the script alone is 3.2 MB), about 0.8 MB
 *   with brotli or gzip.
 * The page is rendered and compressed once, on the first request that needs each form, so a
 * server that nobody asks for its docs never pays for them.
 */
import { HttpApiBuilder, HttpApiScalar, HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApi } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RidequoteApi } from "../Api.js"
import { compress, negotiateEncoding } from "./ContentEncoding.js"

export const DOCS_PATH = "/docs"
/** Where the OpenAPI document of `RidequoteApi` is served. */
export const OPENAPI_PATH = "/openapi.json"

/**
 * Scalar's configuration. `withDefaultFonts: false` keeps it from loading Inter and JetBrains
 * Mono from its font host; the CSS variables give it the system's fonts instead. Two keys are
 * not in HttpApiScalar's config type but Scalar reads them: `telemetry` (its API client
 * reports usage to Scalar when on) and `showToolbar` (on localhost it shows a toolbar whose
 * "Share" button uploads the whole document to Scalar's registry).
 */
const scalarConfig = {
  withDefaultFonts: false,
  telemetry: false,
  showToolbar: "never",
  customCss: `:root {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}`
}

/** The page exactly as HttpApiScalar renders it for `api`, with Scalar's script inlined. */
export const renderDocsPage = (api: HttpApi.HttpApi.Any): Effect.Effect<Uint8Array> =>
  Effect.acquireUseRelease(
    Effect.sync(() =>
      HttpLayerRouter.toWebHandler(
        HttpApiScalar.layerHttpLayerRouter({ api, path: DOCS_PATH, scalar: scalarConfig }),
        { disableLogger: true }
      )
    ),
    ({ handler }) =>
      Effect.promise(async () => {
        const response = await handler(new Request(`http://docs.invalid${DOCS_PATH}`))
        if (response.status !== 200) throw new Error(`the docs page rendered with status ${response.status}`)
        return new Uint8Array(await response.arrayBuffer())
      }),
    ({ dispose }) => Effect.promise(dispose)
  )

const HTML = "text/html; charset=utf-8"

/** GET /docs on the API's router, answering with the best encoding the client accepts. */
export const DocsPageLive: Layer.Layer<never> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const page = yield* Effect.cached(renderDocsPage(RidequoteApi))
    const brotli = yield* Effect.cached(Effect.flatMap(page, (body) => compress("br", body)))
    const gzip = yield* Effect.cached(Effect.flatMap(page, (body) => compress("gzip", body)))
    yield* router.get(
      DOCS_PATH,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const coding = negotiateEncoding(request.headers["accept-encoding"])
        const body = yield* (coding === "br" ? brotli : coding === "gzip" ? gzip : page)
        return HttpServerResponse.uint8Array(body, {
          contentType: HTML,
          // Caches must key the stored page on the request's Accept-Encoding.
          headers: coding === "identity" ? { vary: "accept-encoding" } : { vary: "accept-encoding", "content-encoding": coding }
        })
      })
    )
  })
)
