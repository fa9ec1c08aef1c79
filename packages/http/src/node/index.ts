/**
 * @ridequote/http/node — the service as a `node:http` request listener (`NodeHostLive`), the
 * fast way to serve ridequote on Node. `@ridequote/http` itself stays runtime-neutral.
 */
export { NodeHost, NodeHostLive } from "./NodeHost.js"
export type { NodeHostOptions, NodeRequestListener } from "./NodeHost.js"
export { makeRequestLog } from "../internal/RequestLog.js"
export type { RequestLogFields, RequestLogWriter } from "../internal/RequestLog.js"
export { answerClientErrors, markOddRequestLines, NODE_SERVER_OPTIONS, oddRequestLine } from "./NodeServer.js"
