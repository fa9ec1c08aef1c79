/**
 * Endpoint paths read from `RidequoteApi`, so no module restates a path as a string: a path
 * changed in the contract changes everywhere it is served, logged or linked.
 */
import { HttpApi } from "@effect/platform"
import { RidequoteApi } from "../Api.js"

const paths = new Map<string, string>()
HttpApi.reflect(RidequoteApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, group }) => paths.set(`${group.identifier}.${endpoint.name}`, endpoint.path)
})

/** The path of endpoint `endpoint` of group `group`; throws at start-up for a name the API lacks. */
export const endpointPath = (group: string, endpoint: string): string => {
  const path = paths.get(`${group}.${endpoint}`)
  if (path === undefined) throw new Error(`RidequoteApi has no endpoint ${group}.${endpoint}`)
  return path
}
