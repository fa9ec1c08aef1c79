/**
 * An open-loop load generator for the paced run (bench/sections/paced.ts): POSTs BENCH_PACED_BODY
 * to BENCH_PACED_URL at BENCH_PACED_RATE requests/s for BENCH_PACED_SECONDS over up to
 * BENCH_PACED_CONNECTIONS keep-alive connections, whatever the server's speed (a request is sent
 * when its time comes, not when a previous one answered). Latency is measured from the time the
 * request was due, so a server that falls behind shows it, queueing in this process included
 * (no coordinated omission). Every BENCH_PACED_REPORT_S seconds it prints one JSON line: requests
 * due and answered, 2xx, others, errors, the backlog (due, not yet sent: at most
 * BENCH_PACED_CONNECTIONS are in flight), latency p50/p90/p99/max in ms, and its own CPU (% of a
 * core: near 100, the latencies are partly the generator's). A last line (`final`) covers the
 * answers that arrived in the 2 s after the last request was due.
 */
import http from "node:http"

const url = new URL(process.env.BENCH_PACED_URL)
const body = Buffer.from(process.env.BENCH_PACED_BODY ?? "{}")
const headers = { ...JSON.parse(process.env.BENCH_PACED_HEADERS ?? "{}"), "content-length": String(body.length) }
const rate = Number(process.env.BENCH_PACED_RATE)
const seconds = Number(process.env.BENCH_PACED_SECONDS)
const connections = Number(process.env.BENCH_PACED_CONNECTIONS ?? 50)
const reportS = Number(process.env.BENCH_PACED_REPORT_S ?? 60)
const agent = new http.Agent({ keepAlive: true, maxSockets: connections })

let cpuMark = process.cpuUsage()
let wallMark = performance.now()
let window = { due: 0, answered: 0, s2xx: 0, other: 0, errors: 0, latencies: [] }
const pct = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)])
const report = (final) => {
  const w = window
  window = { due: 0, answered: 0, s2xx: 0, other: 0, errors: 0, latencies: [] }
  const sorted = Float64Array.from(w.latencies).sort()
  const r = (x) => (x === null ? null : Math.round(x * 100) / 100)
  // This generator's own CPU over the window, % of one core: near 100, the latencies are its own.
  const cpu = process.cpuUsage(cpuMark)
  const now = performance.now()
  const cpuPct = Math.round(((cpu.user + cpu.system) / 1000 / (now - wallMark)) * 100)
  cpuMark = process.cpuUsage()
  wallMark = now
  process.stdout.write(JSON.stringify({
    t: Date.now(), final, cpuPct, backlog: dueTimes.length - head, due: w.due, answered: w.answered, s2xx: w.s2xx, other: w.other, errors: w.errors,
    p50: r(pct(sorted, 50)), p90: r(pct(sorted, 90)), p99: r(pct(sorted, 99)), max: r(sorted.length === 0 ? null : sorted[sorted.length - 1])
  }) + "\n")
}

// Requests due and not yet sent: a queue of due times (an array read from a moving head, so a
// backlog costs O(1) a request; the http Agent's own queue shifts an array and slowed this
// generator to a crawl once a server fell behind). At most `connections` requests are in flight.
let dueTimes = []
let head = 0
let inFlight = 0

const pump = () => {
  while (inFlight < connections && head < dueTimes.length) {
    const dueAt = dueTimes[head++]
    inFlight++
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent }, (res) => {
      res.resume()
      res.on("end", () => {
        inFlight--
        window.answered++
        if (res.statusCode >= 200 && res.statusCode < 300) window.s2xx++
        else window.other++
        window.latencies.push(performance.now() - dueAt)
        pump()
      })
    })
    req.on("error", () => {
      inFlight--
      window.errors++
      pump()
    })
    req.end(body)
  }
  if (head > 100_000 && head * 2 > dueTimes.length) {
    dueTimes = dueTimes.slice(head)
    head = 0
  }
}

const start = performance.now()
const end = start + seconds * 1000
let sent = 0
const tick = () => {
  const now = performance.now()
  // Every request whose time has come, each with the time it was due.
  const dueCount = Math.floor((Math.min(now, end) - start) * rate / 1000)
  while (sent < dueCount) {
    dueTimes.push(start + (sent * 1000) / rate)
    window.due++
    sent++
  }
  pump()
  if (now < end) setTimeout(tick, 1)
  else setTimeout(() => { clearInterval(reporter); report(true); agent.destroy(); process.exit(0) }, 2000)
}
const reporter = setInterval(() => report(false), reportS * 1000)
tick()
