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
 * Before any of that, the message itself must be plain HTTP/1.1 (`messageProblem`): version 1.1
 * (or 1.0), a Host header on 1.1, no fragment in the target, no transfer coding but `chunked`, one
 * space between the parts of the request line. Node's parser accepts each of those, and a proxy
 * may frame or route such a message otherwise → 400, and the connection is closed.
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

/** What `messageProblem` reads of a request's head. */
export interface MessageHead {
  /** As the host's parser read it (`"1.1"`); undefined where the platform does not say. */
  readonly httpVersion: string | undefined
  /** The request target as sent. */
  readonly url: string
  readonly host: string | undefined
  readonly transferEncoding: string | undefined
  /** True when the request line had more than one space between its parts (`@ridequote/http/node`'s `oddRequestLine`). */
  readonly oddRequestLine: boolean
}

/**
 * Why a request is not a plain HTTP/1.1 message, if it is not one. Every case is a 400 (not a
 * 505 or 501, which the contract's table has no row for): the message cannot be read one way
 * only, like the other cases of this module. A transfer coding other than `chunked` in
 * particular (`gzip, chunked`): RFC 9112 §6.1 lets a server answer 501, but Node decodes the
 * chunks and drops the gzip, so the body we would read is not the one sent.
 */
export const messageProblem = (head: MessageHead): InvalidRequest | undefined => {
  const version = head.httpVersion
  if (version !== undefined && version !== "1.1" && version !== "1.0") {
    return new InvalidRequest({ message: "only HTTP/1.1 (or 1.0) requests are served" })
  }
  if (head.oddRequestLine) {
    return new InvalidRequest({ message: "the request line must be METHOD, the target and the version, one space apart" })
  }
  if (version === "1.1" && head.host === undefined) {
    return new InvalidRequest({ message: "the Host header is required" })
  }
  if (head.url.includes("#")) {
    return new InvalidRequest({ message: "the request target must not carry a fragment (#…)" })
  }
  const coding = head.transferEncoding
  if (coding !== undefined && coding.trim().toLowerCase() !== "chunked") {
    return new InvalidRequest({ message: "no transfer coding but chunked is accepted (Transfer-Encoding)" })
  }
  return undefined
}

/**
 * Requests whose request line the host's server found oddly spaced while it was still parsing
 * (`@ridequote/http/node`'s `markOddRequestLines`); the edge reads the mark later, when the
 * bytes are gone. Keyed by the platform's request object (`HttpServerRequest.source`).
 */
export const oddRequestLines: WeakSet<object> = new WeakSet()
