/**
 * `pnpm start`: serves the custom host on 127.0.0.1:8090 (PORT overrides) until Ctrl-C, on a
 * SQLite file (./data/custom-host.db; RIDEQUOTE_DATABASE overrides), created and migrated on start.
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { HttpServer } from "@effect/platform"
import { Layer } from "effect"
import { SqliteEngineLive } from "@ridequote/compose"
import { answerClientErrors, markOddRequestLines, NODE_SERVER_OPTIONS } from "@ridequote/http/node"
import { CustomHostOn } from "./host.js"

const port = Number(process.env["PORT"] ?? 8090)
const filename = process.env["RIDEQUOTE_DATABASE"] ?? "./data/custom-host.db"

/**
 * A `node:http` server prepared for ridequote: requests without Host, bytes Node's parser refuses
 * and oddly spaced request lines get the contract's JSON 400 instead of Node's bare answer.
 */
const server = () => {
  const created = createServer(NODE_SERVER_OPTIONS)
  answerClientErrors(created)
  markOddRequestLines(created)
  return created
}

CustomHostOn(SqliteEngineLive({ filename })).pipe(
  HttpServer.withLogAddress,
  Layer.provide(NodeHttpServer.layer(server, { port, host: "127.0.0.1" })),
  Layer.launch,
  NodeRuntime.runMain
)
