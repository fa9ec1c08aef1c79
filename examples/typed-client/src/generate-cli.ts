/**
 * `pnpm generate [SERVER_URL]`: writes src/generated/ridequote.ts.
 * - with a URL, from that server's /openapi.json (what a client of a deployed ridequote does);
 * - without, from `RidequoteApi` itself: the same document every ridequote serves at
 *   /openapi.json, so no server needs to run.
 */
import { OpenApi } from "@effect/platform"
import { RidequoteApi } from "@ridequote/http"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { GENERATED_FILE, generateClientTypes } from "./generate.js"

const serverUrl = process.argv[2]
const document: object = serverUrl === undefined
  ? OpenApi.fromApi(RidequoteApi)
  : await fetch(new URL("/openapi.json", serverUrl)).then((r) => {
    if (!r.ok) throw new Error(`GET ${r.url}: ${r.status}`)
    return r.json() as Promise<object>
  })
const path = fileURLToPath(GENERATED_FILE)
mkdirSync(dirname(path), { recursive: true })
writeFileSync(path, await generateClientTypes(document))
console.log(`wrote ${path}`)
