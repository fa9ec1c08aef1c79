/** GET /docs: self-contained (nothing from another origin) and served compressed when asked. */
import { describe, expect, it, layer } from "@effect/vitest"
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Effect, Layer } from "effect"
import { request as httpRequest } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { negotiateEncoding } from "../src/internal/ContentEncoding.js"
import { makeTestApp, TestServerPort } from "./harness.js"

const App = makeTestApp(() => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog))

interface RawResponse {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
}

/** node:http, so that the body arrives exactly as sent: no client decompresses it for us. */
const rawGet = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const port = yield* TestServerPort
    return yield* Effect.async<RawResponse>((resume) => {
      const req = httpRequest({ host: "127.0.0.1", port, path, headers }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => resume(Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })))
      })
      req.on("error", (e) => resume(Effect.die(e)))
      req.end()
    })
  })

/** The markup around the inline scripts: what a browser loads before running any script. */
const markupOutsideScripts = (html: string): string => html.replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, "$1$2")

describe("negotiateEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.4", "gzip"],
    ["GZIP;Q=1", "gzip"],
    ["*", "br"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["deflate", "identity"],
    ["identity", "identity"],
    ["br;q=0, gzip;q=0", "identity"],
    ["compress, zstd;q=0.9", "identity"]
  ])("%j → %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected)
  })
})

describe("GET /docs", () => {
  layer(App, { excludeTestServices: true })((it) => {
    it.effect("uncompressed when the client does not ask: text/html, Vary: Accept-Encoding", () =>
      Effect.gen(function*() {
        const r = yield* rawGet("/docs")
        expect(r.status).toBe(200)
        expect(r.headers["content-type"]).toMatch(/^text\/html/)
        expect(r.headers["content-encoding"]).toBeUndefined()
        expect(String(r.headers["vary"]).toLowerCase()).toContain("accept-encoding")
        expect(r.body.subarray(0, 15).toString("utf8")).toBe("<!doctype html>")
      }))

    it.effect("references nothing outside the host: no external script, style, font, image or frame", () =>
      Effect.gen(function*() {
        const html = (yield* rawGet("/docs")).body.toString("utf8")
        const scriptUrl = /<script src="(\/docs\/scalar\.js\?v=[A-Za-z0-9_-]+)"><\/script>/.exec(html)?.[1]
        expect(scriptUrl).toBeDefined()
        const script = (yield* rawGet(scriptUrl ?? "")).body.toString("utf8")
        const markup = markupOutsideScripts(html)
        // Every URL-bearing attribute in the markup is relative (or a data: URL).
        const urls = [...markup.matchAll(/\s(?:src|href|srcset|action|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1])
        expect(urls.filter((u) => u !== undefined && /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(u))).toEqual([])
        // (Matches, not the 3 MB page, are what a failure prints.)
        expect(markup.match(/<(?:link|iframe|img|object|embed)\b[^>]*>/i)?.[0]).toBeUndefined()
        // Scalar's script comes from this host (its own cacheable asset), not from a CDN.
        expect([...markup.matchAll(/<script[^>]*\ssrc="([^"]*)"[^>]*>/gi)].map((m) => m[1])).toEqual([scriptUrl])
        expect(script.length).toBeGreaterThan(1_000_000)
        // The only stylesheet URLs pointing elsewhere are Scalar's default web fonts, which its
        // configuration below turns off; a new one (another font host, a CDN) fails here.
        const cssOrigins = new Set([...(html + script).matchAll(/(?<![\w.])url\(\s*["']?(https?:\/\/[^/"')]+)/g)].map((m) => m[1]))
        expect([...cssOrigins]).toEqual(["https://fonts.scalar.com"])
        const config = /dataset\.configuration = JSON\.stringify\((\{.*?\})\)\s*<\/script>/s.exec(html)?.[1]
        expect(config).toBeDefined()
        expect(JSON.parse(config ?? "{}")).toMatchObject({ withDefaultFonts: false, telemetry: false, showToolbar: "never" })
        expect((html + script).match(/@import\s+(?:url\()?\s*["']?https?:[^;]*/)?.[0]).toBeUndefined()
      }))

    it.effect("gzip when accepted: Content-Encoding gzip, and the body inflates to the page", () =>
      Effect.gen(function*() {
        const plain = (yield* rawGet("/docs")).body
        const r = yield* rawGet("/docs", { "accept-encoding": "gzip" })
        expect(r.status).toBe(200)
        expect(r.headers["content-encoding"]).toBe("gzip")
        expect(r.headers["content-type"]).toMatch(/^text\/html/)
        expect(r.body.length).toBeLessThan(plain.length / 3)
        expect(gunzipSync(r.body).equals(plain)).toBe(true)
      }))

    it.effect("brotli preferred when accepted alongside gzip; the body decompresses to the page", () =>
      Effect.gen(function*() {
        const plain = (yield* rawGet("/docs")).body
        const r = yield* rawGet("/docs", { "accept-encoding": "gzip, deflate, br" })
        expect(r.headers["content-encoding"]).toBe("br")
        expect(Number(r.headers["content-length"])).toBe(r.body.length)
        expect(brotliDecompressSync(r.body).equals(plain)).toBe(true)
      }))

    it.effect("the page carries an ETag per coding, must be revalidated (no-cache), and answers 304 when unchanged", () =>
      Effect.gen(function*() {
        const plain = yield* rawGet("/docs")
        const br = yield* rawGet("/docs", { "accept-encoding": "br" })
        const etag = String(plain.headers["etag"])
        expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
        expect(br.headers["etag"]).toBe(`${etag.slice(0, -1)}-br"`)
        expect(plain.headers["cache-control"]).toBe("no-cache")
        // Small now that Scalar's script is an asset of its own.
        expect(plain.body.length).toBeLessThan(200_000)
        const again = yield* rawGet("/docs", { "if-none-match": etag })
        expect(again.status).toBe(304)
        expect(again.body.length).toBe(0)
        expect(again.headers["etag"]).toBe(etag)
        expect((yield* rawGet("/docs", { "if-none-match": "\"stale\"" })).status).toBe(200)
        expect((yield* rawGet("/docs", { "accept-encoding": "br", "if-none-match": `W/${br.headers["etag"]}` })).status).toBe(304)
      }))

    it.effect("Scalar's script: compressed once, cached for a year (immutable), its URL carrying its hash, 304 when unchanged", () =>
      Effect.gen(function*() {
        const html = (yield* rawGet("/docs")).body.toString("utf8")
        const url = /<script src="(\/docs\/scalar\.js\?v=([A-Za-z0-9_-]+))"/.exec(html)
        expect(url).not.toBeNull()
        const plain = yield* rawGet(url?.[1] ?? "")
        expect(plain.status).toBe(200)
        expect(plain.headers["content-type"]).toMatch(/^text\/javascript/)
        expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
        expect(plain.headers["etag"]).toBe(`"${url?.[2]}"`)
        const gz = yield* rawGet(url?.[1] ?? "", { "accept-encoding": "gzip" })
        expect(gz.headers["content-encoding"]).toBe("gzip")
        expect(gunzipSync(gz.body).equals(plain.body)).toBe(true)
        expect(gz.body.length).toBeLessThan(plain.body.length / 3)
        const second = yield* rawGet(url?.[1] ?? "", { "accept-encoding": "gzip" })
        expect(second.body.equals(gz.body)).toBe(true)
        expect((yield* rawGet(url?.[1] ?? "", { "if-none-match": String(plain.headers["etag"]) })).status).toBe(304)
      }))

    it.effect("a coding refused with q=0 is not used", () =>
      Effect.gen(function*() {
        const r = yield* rawGet("/docs", { "accept-encoding": "br;q=0, gzip;q=0" })
        expect(r.headers["content-encoding"]).toBeUndefined()
        expect(r.body.subarray(0, 15).toString("utf8")).toBe("<!doctype html>")
      }))
  })
})
