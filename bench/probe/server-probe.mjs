/**
 * Preloaded into a server the bench runs (`node --import <this file> …`), ridequote or a
 * reference alike; it shares nothing with the engine. Every BENCH_PROBE_INTERVAL_MS (10,000) it
 * appends one JSON line to BENCH_PROBE_FILE: the event loop's delay over the interval
 * (`perf_hooks.monitorEventLoopDelay` at a 5 ms resolution, the 5 ms period taken off: p50, p99,
 * max, mean, ms), the time spent
 * in garbage collection (PerformanceObserver "gc" entries: ms and count, by kind), the heap
 * (used and total), V8's external and ArrayBuffer memory, and the resident size with its parts
 * (anonymous, file-backed, shared; Linux only). Timers are unref'd: the probe never keeps a server alive.
 */
import { appendFileSync, readFileSync } from "node:fs"
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"

const file = process.env.BENCH_PROBE_FILE
if (file !== undefined && file !== "") {
  const intervalMs = Number(process.env.BENCH_PROBE_INTERVAL_MS || 10_000)
  const RESOLUTION_MS = 5
  const eld = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  eld.enable()
  // perf_hooks' gc kinds (perf_hooks.constants): 1 minor (scavenge), 4 major (mark-compact),
  // 8 incremental marking, 16 weak callbacks.
  const KINDS = { 1: "minor", 4: "major", 8: "incremental", 16: "weakcb" }
  let gc = { ms: 0, count: 0, minorMs: 0, majorMs: 0, incrementalMs: 0, weakcbMs: 0 }
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = KINDS[entry.detail?.kind ?? entry.kind] ?? "weakcb"
      gc.ms += entry.duration
      gc.count += 1
      gc[`${kind}Ms`] += entry.duration
    }
  })
  observer.observe({ entryTypes: ["gc"] })
  const ms = (ns) => Math.round(ns / 1e4) / 100
  const mb = (bytes) => Math.round(bytes / 1e5) / 10
  // Where the resident size is: anonymous memory (heaps: V8's and the native allocator's),
  // file-backed pages (code, mapped files) and shared memory (SQLite's WAL index), from
  // /proc/self/status (Linux; absent elsewhere), in kB there.
  const residentParts = () => {
    try {
      const status = readFileSync("/proc/self/status", "utf8")
      const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
      return { rssAnonMb: mb(kb("RssAnon") * 1024), rssFileMb: mb(kb("RssFile") * 1024), rssShmemMb: mb(kb("RssShmem") * 1024) }
    } catch {
      return {}
    }
  }
  // The histogram holds each timer's whole period (an idle loop reads ~5 ms at a 5 ms
  // resolution): the delay is what exceeds the period.
  const delay = (ns) => Math.max(0, ms(ns) - RESOLUTION_MS)
  const timer = setInterval(() => {
    const m = process.memoryUsage()
    const line = {
      t: Date.now(),
      eldP50: delay(eld.percentile(50)),
      eldP99: delay(eld.percentile(99)),
      eldMax: delay(eld.max),
      eldMean: delay(eld.mean),
      gcMs: Math.round(gc.ms * 100) / 100,
      gcCount: gc.count,
      gcMinorMs: Math.round(gc.minorMs * 100) / 100,
      gcMajorMs: Math.round(gc.majorMs * 100) / 100,
      gcIncrementalMs: Math.round(gc.incrementalMs * 100) / 100,
      heapUsedMb: mb(m.heapUsed),
      heapTotalMb: mb(m.heapTotal),
      externalMb: mb(m.external),
      arrayBuffersMb: mb(m.arrayBuffers),
      rssMb: mb(m.rss),
      ...residentParts()
    }
    eld.reset()
    gc = { ms: 0, count: 0, minorMs: 0, majorMs: 0, incrementalMs: 0, weakcbMs: 0 }
    try {
      appendFileSync(file, JSON.stringify(line) + "\n")
    } catch {
      // the bench removed its directory: nothing left to report to
    }
  }, intervalMs)
  timer.unref()
}
