/**
 * GET /docs: the interactive API reference (Scalar), built from `RidequoteApi`'s OpenAPI
 * document. Two things differ from `HttpApiScalar.layer`:
 * - it is self-contained: Scalar's script is inlined (as HttpApiScalar does) and its default
 *   web fonts, which it fetches from Scalar's own font host, are turned off in favour of the
 *   system's fonts, so the page works offline and tells no third party who reads our docs;
 *   Scalar's telemetry is off for the same reason;
 * - it is served compressed: the page is 3.3 MB (the script alone is 3.2 MB), about 0.8 MB
 *   with brotli or gzip;
 * - it is cacheable: Scalar's script is a separate asset whose URL carries its hash (cached for
 *   a year, `immutable`), the remaining page (~45 KB) is revalidated with its ETag (304).
 * The page is rendered, split and compressed once, on the first request that needs each form,
 * so a server that nobody asks for its docs never pays for them.
 */
import { HttpApiBuilder, HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApi } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RidequoteApi } from "../Api.js"
import { createHash } from "node:crypto"
import { compress, negotiateEncoding } from "./ContentEncoding.js"
import type { ContentCoding } from "./ContentEncoding.js"

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
    // Imported on first use: the module holds Scalar's 3.2 MB script, which a process that
    // serves no docs page should neither compile nor keep (the compiled program puts it in a
    // chunk of its own, loaded here).
    Effect.promise(() => import("@effect/platform/HttpApiScalar")).pipe(
      Effect.map(({ layerHttpLayerRouter }) =>
        HttpLayerRouter.toWebHandler(
          layerHttpLayerRouter({ api, path: DOCS_PATH, scalar: scalarConfig }),
          { disableLogger: true }
        )
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
const JAVASCRIPT = "text/javascript; charset=utf-8"

/** Scalar's script, served apart from the page so that browsers and caches keep it (see `splitPage`). */
export const DOCS_SCRIPT_PATH = `${DOCS_PATH}/scalar.js`

/** The page (small: markup, configuration, the OpenAPI document) and Scalar's script (3.2 MB). */
interface DocsParts {
  readonly page: Uint8Array
  readonly script: Uint8Array | undefined
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("base64url").slice(0, 22)

/**
 * Moves Scalar's inline script out of the page into its own asset, referenced as
 * `/docs/scalar.js?v=<hash of the script>`. The page then changes when the API does and is
 * revalidated on every visit (a 304 when unchanged); the script only changes with Scalar's
 * version, whose hash is in its URL, so it is cached for a year and never fetched twice. The
 * script is the page's one `<script>` element whose end is the page's last `</script>` (its own
 * text escapes the tag as `<\/script>`); a page of another shape is served whole.
 */
export const splitPage = (rendered: Uint8Array): DocsParts => {
  const text = new TextDecoder().decode(rendered)
  const end = text.lastIndexOf("</script>")
  let start = text.indexOf("<script>")
  while (start >= 0 && text.indexOf("</script>", start) !== end) start = text.indexOf("<script>", start + 1)
  if (start < 0 || end < 0) return { page: rendered, script: undefined }
  const encoder = new TextEncoder()
  const script = encoder.encode(text.slice(start + "<script>".length, end))
  const tag = `<script src="${DOCS_SCRIPT_PATH}?v=${sha256(script)}"></script>`
  return { page: encoder.encode(text.slice(0, start) + tag + text.slice(end + "</script>".length)), script }
}

/** One body in every coding we offer, each compressed once (on first request) with its ETag. */
const makeAsset = (body: Effect.Effect<Uint8Array>) =>
  Effect.gen(function*() {
    const identity = yield* Effect.cached(Effect.map(body, (bytes) => ({ bytes, etag: `"${sha256(bytes)}"` })))
    const coded = (coding: Exclude<ContentCoding, "identity">) =>
      Effect.cached(Effect.flatMap(identity, ({ bytes, etag }) =>
        Effect.map(compress(coding, bytes), (out) => ({ bytes: out, etag: `${etag.slice(0, -1)}-${coding}"` }))))
    const br = yield* coded("br")
    const gzip = yield* coded("gzip")
    return (coding: ContentCoding) => (coding === "br" ? br : coding === "gzip" ? gzip : identity)
  })

/** Whether `If-None-Match` names `etag` (weak or strong, `*` included): the client's copy is current. */
export const matchesEtag = (ifNoneMatch: string | undefined, etag: string): boolean => {
  if (ifNoneMatch === undefined) return false
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim()
    return t === "*" || t.replace(/^W\//, "") === etag
  })
}

/** The page is revalidated on each visit; the script, whose URL carries its hash, is kept a year. */
const REVALIDATE = "no-cache"
const IMMUTABLE = "public, max-age=31536000, immutable"

/** GET /docs and its script on the API's router, in the best encoding the client accepts, with ETags. */
export const DocsPageLive: Layer.Layer<never> = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const parts = yield* Effect.cached(Effect.map(renderDocsPage(RidequoteApi), splitPage))
    const page = yield* makeAsset(Effect.map(parts, (p) => p.page))
    const script = yield* makeAsset(Effect.flatMap(parts, (p) =>
      p.script === undefined ? Effect.dieMessage("the docs page has no separate script") : Effect.succeed(p.script)))

    const serve = (asset: (coding: ContentCoding) => Effect.Effect<{ readonly bytes: Uint8Array; readonly etag: string }>, contentType: string, cacheControl: string) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const coding = negotiateEncoding(request.headers["accept-encoding"])
        const { bytes, etag } = yield* asset(coding)
        // Caches must key the stored body on the request's Accept-Encoding.
        const headers: Record<string, string> = { vary: "accept-encoding", etag, "cache-control": cacheControl }
        if (matchesEtag(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
        if (coding !== "identity") headers["content-encoding"] = coding
        return HttpServerResponse.uint8Array(bytes, { contentType, headers })
      })

    yield* router.get(DOCS_PATH, serve(page, HTML, REVALIDATE))
    yield* router.get(DOCS_SCRIPT_PATH, serve(script, JAVASCRIPT, IMMUTABLE))
  })
)
