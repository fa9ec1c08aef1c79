/**
 * Two servers loaded at the same time, on the server core, half the connections each: a
 * comparison the host's drift cannot tilt. Rounds one after the other swung ×0.70–1.50 here as
 * the shared machine's speed moved within minutes; served at once, with each server in a
 * session of its own (`spawnTracked(…, { ownSession: true })`: one scheduler autogroup each,
 * so half the core each), two identical servers agree within a few per cent.
 */
import { http } from "./config.js"
import { type LoadResult, type LoadSpec, runLoad } from "./load.js"

/** Connections each of two servers served at once gets: half, so the two together get what one alone does. */
export const HALF_CONNECTIONS = Math.max(1, Math.round(http.connections / 2))

/** A server and the request it is loaded with. */
export interface Loaded {
  readonly server: { readonly url: string }
  readonly spec: LoadSpec
}

/** Loads two servers at the same time for `durationS`, each with half the connections; their results in order. */
export const loadTogether = async (pair: readonly [Loaded, Loaded], durationS: number): Promise<readonly [LoadResult, LoadResult]> => {
  const connections = HALF_CONNECTIONS
  const [a, b] = pair
  return Promise.all([
    runLoad(a.server.url, a.spec, { durationS, connections }),
    runLoad(b.server.url, b.spec, { durationS, connections })
  ])
}
