/**
 * Which resolver a program uses, as the `--routes` option spells it:
 * `offline` (default), `empirical`, or `osrm=URL`.
 */
import { Either, Layer } from "effect"
import type { RouteResolver } from "@ridequote/core"
import { OsrmRouteResolverLive } from "./Osrm.js"
import { EmpiricalRouteResolverLive, OfflineRouteResolverLive } from "./Resolvers.js"

/** A resolver choice, parsed from `--routes` / RIDEQUOTE_ROUTES by `parseRoutesChoice`. */
export type RoutesChoice =
  | { readonly _tag: "Offline" }
  | { readonly _tag: "Empirical" }
  | { readonly _tag: "Osrm"; readonly baseUrl: string }

/** The offline estimator: no network, no server to run, works for every market. */
export const DEFAULT_ROUTES: RoutesChoice = { _tag: "Offline" }

/** Reads `offline`, `empirical` or `osrm=http(s)://…`; Left is a message for the user. */
export const parseRoutesChoice = (text: string): Either.Either<RoutesChoice, string> => {
  const t = text.trim()
  if (t === "offline") return Either.right({ _tag: "Offline" })
  if (t === "empirical") return Either.right({ _tag: "Empirical" })
  if (t.startsWith("osrm=")) {
    const url = t.slice("osrm=".length)
    return /^https?:\/\/[^\s/]+/.test(url)
      ? Either.right({ _tag: "Osrm", baseUrl: url })
      : Either.left(`osrm=URL needs an http(s) URL, got "${url}"`)
  }
  return Either.left(`expected offline, empirical or osrm=URL, got "${t}"`)
}

/** The choice in a few words for start-up and progress lines, e.g. `osrm http://… (offline fallback)`. */
export const describeRoutes = (choice: RoutesChoice): string =>
  choice._tag === "Osrm" ? `osrm ${choice.baseUrl} (offline fallback)` : choice._tag.toLowerCase()

/** The `RouteResolver` of a choice; requires nothing (OSRM with its default timeout, cache and offline fallback). */
export const RouteResolverLive = (choice: RoutesChoice): Layer.Layer<RouteResolver> =>
  choice._tag === "Offline"
    ? OfflineRouteResolverLive
    : choice._tag === "Empirical"
    ? EmpiricalRouteResolverLive
    : OsrmRouteResolverLive({ baseUrl: choice.baseUrl })
