/** `pnpm start`: serves the custom host on 127.0.0.1:8090 (PORT overrides) until Ctrl-C. */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { HttpServer } from "@effect/platform"
import { Layer } from "effect"
import { CustomHostLive } from "./host.js"

const port = Number(process.env["PORT"] ?? 8090)

CustomHostLive.pipe(
  HttpServer.withLogAddress,
  Layer.provide(NodeHttpServer.layer(createServer, { port, host: "127.0.0.1" })),
  Layer.launch,
  NodeRuntime.runMain
)
