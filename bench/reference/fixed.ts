/**
 * Reference (a): plain `node:http` that reads the request body and answers a prebuilt JSON
 * body of BENCH_REF_BYTES bytes (the size of ridequote's quote response in the same run). The
 * ceiling of Node's HTTP on this core: nothing is computed per request.
 */
import { createServer } from "node:http"

const bytes = Math.max(16, Number(process.env["BENCH_REF_BYTES"] ?? 1404))
const pad = "x".repeat(bytes - '{"pad":""}'.length)
const body = Buffer.from(`{"pad":"${pad}"}`, "utf8")
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": String(body.length),
  "x-request-id": "00000000-0000-4000-8000-000000000000"
}

const server = createServer((req, res) => {
  req.on("data", () => {})
  req.on("end", () => {
    res.writeHead(200, headers)
    res.end(body)
  })
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  console.log(JSON.stringify({ event: "listening", address: `http://127.0.0.1:${port}`, bytes: body.length }))
})
const shutdown = () => server.close(() => process.exit(0))
process.on("SIGTERM", shutdown)
process.on("SIGINT", shutdown)
