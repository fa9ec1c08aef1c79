/**
 * One reading of a request's head (docs/security.md, "One reading of a request"). A proxy, a
 * WAF or a load balancer in front of the service reads each request before we do; wherever two
 * readings could differ, the request is refused instead of being read our own way:
 *
 * - a header that carries one value (credentials, the content type, Host) sent twice: Node keeps
 *   the first Authorization and drops the rest, a proxy may check the last → 400;
 * - a target that is not in origin form (`/path?query`), except the absolute form naming the
 *   Host header's own authority: a proxy routes on Host, we would route on the target → 400;
 * - a path that only matches a route once normalized (case, `//`, `;matrix`, dot segments,
 *   percent-escapes, a trailing slash): routers disagree on those → 404 (the caller is told
 *   the exact paths by docs/api.md and /openapi.json).
 *
 * The body's head (charset, Content-Encoding) is JsonBody's; duplicated JSON keys, DuplicateKeys'.
 */
import { InvalidRequest } from "@ridequote/core"

/** Headers that carry one value; lower-case, by length for the scan below. */
const SINGLE_VALUED: ReadonlyArray<string> = ["authorization", "x-api-key", "x-api-secret", "content-type", "host"]

/**
 * The name (as sent) of a single-valued header that occurs twice in `rawHeaders` (Node's
 * `IncomingMessage.rawHeaders`: names and values alternating, as received), if any. A dozen
 * headers cost a dozen length comparisons: only names of a matching length are lower-cased.
 */
export const repeatedHeader = (rawHeaders: ReadonlyArray<string>): string | undefined => {
  let seen = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!
    const length = name.length
    if (length !== 13 && length !== 9 && length !== 12 && length !== 4) continue
    const index = SINGLE_VALUED.indexOf(name.toLowerCase())
    if (index < 0) continue
    const bit = 1 << index
    if ((seen & bit) !== 0) return name
    seen |= bit
  }
  return undefined
}

/**
 * The same check on a header record whose repeated values were joined with ", " (the Fetch
 * API's `Headers`, as a non-Node host would deliver them): none of these values has a comma.
 */
export const joinedHeader = (headers: Readonly<Record<string, string | undefined>>): string | undefined => {
  for (const name of SINGLE_VALUED) {
    if (name !== "content-type" && headers[name]?.includes(",") === true) return name
  }
  return undefined
}

export const repeatedHeaderError = (name: string): InvalidRequest =>
  new InvalidRequest({ message: `the ${headerLabel(name)} header is sent more than once; send it once` })

const headerLabel = (name: string): string => {
  switch (name.toLowerCase()) {
    case "authorization":
      return "Authorization"
    case "x-api-key":
      return "X-API-KEY"
    case "x-api-secret":
      return "X-API-SECRET"
    case "content-type":
      return "Content-Type"
    default:
      return "Host"
  }
}

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/is

/**
 * The request target in origin form (`/path?query`): as sent when it is in origin form; the
 * path and query of an absolute-form target (`http://host/path`) whose authority is the Host
 * header's (RFC 9112 §3.2.2 lets a client send it so); else a 400 (another host, or a form we do
 * not serve, such as `*`).
 */
export const originForm = (target: string, host: string | undefined): string | InvalidRequest => {
  if (target.charCodeAt(0) === 47) return target
  const absolute = ABSOLUTE_FORM.exec(target)
  if (absolute === null) return new InvalidRequest({ message: "the request target must be a path (origin form)" })
  const authority = (absolute[1] ?? "").toLowerCase()
  if (host === undefined || authority !== host.trim().toLowerCase()) {
    return new InvalidRequest({ message: "the request target names a host other than the Host header's" })
  }
  const rest = absolute[2] ?? ""
  return rest.startsWith("/") ? rest : `/${rest}`
}


/**
 * A path as a lenient router might read it: `;params` dropped from each segment, escapes
 * decoded, empty and `.` segments dropped, `..` applied, lower case, no trailing slash.
 */
export const lenientPath = (path: string): string => {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // A malformed escape: compared as sent.
  }
  const segments: Array<string> = []
  for (const raw of decoded.split("/")) {
    const segment = raw.split(";")[0]!.trim().toLowerCase()
    if (segment === "" || segment === ".") continue
    if (segment === "..") segments.pop()
    else segments.push(segment)
  }
  return `/${segments.join("/")}`
}

/**
 * Whether `path`, not a route as sent, is one once read leniently: such a near miss is refused
 * (404) rather than handed to a router that might normalize it into the route. Paths that are
 * no route of ours at all go on to the router, where a host's own routes may answer them.
 */
export const makeNearMiss = (routes: Iterable<string>) => {
  const lenient = new Set<string>()
  for (const route of routes) lenient.add(lenientPath(route))
  return (path: string): boolean => lenient.has(lenientPath(path))
}
