/**
 * Post-processing of the generated OpenAPI document. HttpApi always adds its own
 * `HttpApiDecodeError` as a possible 400 of every endpoint, but this service never answers
 * with that shape (the edge turns decode failures into `result:invalid-request`), so the
 * document drops it. The response headers the edge adds are documented here too.
 */

type Json = Record<string, unknown>

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"

/** Components that no operation references but the document keeps on purpose. */
const KEPT_COMPONENTS = ["UnknownRoute", "MethodNotAllowed"]

const header = (description: string, schema: Json = { type: "string" }): Json => ({ description, schema })

/** Removes the decode error from one response schema; undefined when nothing is left. */
const withoutDecodeError = (schema: unknown): unknown => {
  if (!isRecord(schema)) return schema
  if (schema.$ref === DECODE_ERROR_REF) return undefined
  if (Array.isArray(schema.anyOf)) {
    const rest = schema.anyOf.filter((s) => !(isRecord(s) && s.$ref === DECODE_ERROR_REF))
    if (rest.length === 0) return undefined
    if (rest.length === 1) return rest[0]
    return { ...schema, anyOf: rest }
  }
  return schema
}

const collectRefs = (node: unknown, into: Set<string>): void => {
  if (Array.isArray(node)) {
    for (const n of node) collectRefs(n, into)
  } else if (isRecord(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        into.add(v.slice("#/components/schemas/".length))
      } else {
        collectRefs(v, into)
      }
    }
  }
}

/** The audit endpoint (group "audit", endpoint "recent"), which pages with a Link header. */
const AUDIT_OPERATION = "audit.recent"

const transformOperation = (method: string, op: Json): Json => {
  const responses: Json = {}
  for (const [status, response] of Object.entries(isRecord(op.responses) ? op.responses : {})) {
    if (!isRecord(response)) continue
    // The decode error's description ("did not match the expected schema") names what was removed.
    let next: Json = status === "400" ? { ...response, description: "Invalid request" } : { ...response }
    if (isRecord(response.content)) {
      const content: Json = {}
      for (const [type, media] of Object.entries(response.content)) {
        if (!isRecord(media)) continue
        const schema = withoutDecodeError(media.schema)
        if (schema !== undefined) content[type] = { ...media, schema }
      }
      if (Object.keys(content).length === 0) continue
      next = { ...next, content }
    }
    const headers: Json = {
      "X-Request-Id": header(
        "The caller's own X-Request-Id when it sent a well-formed one (1-128 characters of A-Z a-z 0-9 . _ : -), " +
          "else a UUID of this request; without one, on POST /v1/quote also the quote's requestId and audit key",
        { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" }
      )
    }
    if (status === "401") {
      headers["WWW-Authenticate"] = header(
        "Bearer error=\"invalid_token\" when a token was presented, Bearer realm=\"ridequote\" when none was"
      )
    }
    if (status === "429") headers["Retry-After"] = header("Seconds until a request is accepted again", { type: "integer", minimum: 1 })
    if (status === "200" && op.operationId === AUDIT_OPERATION) {
      headers["Link"] = header("<next page URL>; rel=\"next\" when more entries exist")
    }
    next = { ...next, headers }
    responses[status] = next
  }
  const parameters = Array.isArray(op.parameters)
    ? op.parameters.map((p) =>
      // The credential headers are optional in the schema only so that a missing one is a 401
      // (invalid credentials) rather than a decode error; callers must send both.
      isRecord(p) && p.in === "header" && (p.name === "x-api-key" || p.name === "x-api-secret") && method === "post"
        ? { ...p, required: true }
        : p
    )
    : op.parameters
  return { ...op, parameters, responses }
}

export const ApiDocumentTransform = (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths: Json = {}
  for (const [path, item] of Object.entries(isRecord(spec.paths) ? spec.paths : {})) {
    if (!isRecord(item)) continue
    const ops: Json = {}
    for (const [method, op] of Object.entries(item)) ops[method] = isRecord(op) ? transformOperation(method, op) : op
    paths[path] = ops
  }
  // Keep only the schemas reachable from the paths (and the ones kept on purpose).
  const components = isRecord(spec.components) ? spec.components : {}
  const schemas = isRecord(components.schemas) ? components.schemas : {}
  const reachable = new Set<string>(KEPT_COMPONENTS)
  collectRefs(paths, reachable)
  const queue = [...reachable]
  while (queue.length > 0) {
    const name = queue.pop()
    if (name === undefined) break
    const found = new Set<string>()
    collectRefs(schemas[name], found)
    for (const f of found) {
      if (!reachable.has(f)) {
        reachable.add(f)
        queue.push(f)
      }
    }
  }
  const kept: Json = {}
  for (const [name, schema] of Object.entries(schemas)) if (reachable.has(name)) kept[name] = schema
  return { ...spec, paths, components: { ...components, schemas: kept } }
}
