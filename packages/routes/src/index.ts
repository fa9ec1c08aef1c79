/**
 * @ridequote/routes — route resolution behind core's `RouteResolver` port: the offline
 * estimator and the empirical resolver, both learned per market from its trip records, a
 * client of an OSRM-compatible routing server with timeout, cache and offline fallback, and
 * the learning itself (used by `@ridequote/calibration`).
 */
export { DEFAULT_ROUTES, describeRoutes, parseRoutesChoice, RouteResolverLive } from "./internal/Choice.js"
export type { RoutesChoice } from "./internal/Choice.js"
export { areaFactor, estimateRoute, PICKUP_DROPOFF_MINUTES, speedFactorAt } from "./internal/Estimator.js"
export { AreaSpeed, knowledgeOf, OdCells, RouteKnowledge } from "./internal/Knowledge.js"
export type { KnowsRoutes } from "./internal/Knowledge.js"
export {
  FALLBACK_DETOUR_FACTOR,
  learnAreaSpeed,
  learnOdCells,
  learnRouteKnowledge,
  learnRouteProfile,
  MIN_RESOLVABLE_KM
} from "./internal/Learn.js"
export type { RouteSample } from "./internal/Learn.js"
export { DEFAULT_OSRM_CACHE_SIZE, DEFAULT_OSRM_TIMEOUT, makeOsrmResolver, OsrmRouteResolverLive, parseOsrmRoute } from "./internal/Osrm.js"
export type { OsrmOptions } from "./internal/Osrm.js"
export { EmpiricalRouteResolverLive, empiricalRoute, OfflineRouteResolverLive, offlineResolver, offlineRoute } from "./internal/Resolvers.js"
