/**
 * An Effect `Console` that writes into strings instead of the process's stdout/stderr, so a
 * command run in-process can be checked the way a shell would see it.
 */
import { Console as NodeConsole } from "node:console"
import { Writable } from "node:stream"
import { Effect } from "effect"
import type { Console } from "effect"

export interface Captured {
  readonly console: Console.Console
  readonly stdout: () => string
  readonly stderr: () => string
}

export const captureConsole = (): Captured => {
  const out: Array<string> = []
  const err: Array<string> = []
  // _write completes synchronously, so everything printed is in the array when a command returns.
  const sink = (into: Array<string>) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        into.push(typeof chunk === "string" ? chunk : chunk.toString("utf8"))
        callback()
      }
    })
  const stdout = sink(out)
  const stderr = sink(err)
  const c = new NodeConsole({ stdout, stderr, colorMode: false })
  const sync = (f: () => void) => Effect.sync(f)
  const console: Console.Console = {
    [Symbol.for("effect/Console") as Console.TypeId]: Symbol.for("effect/Console") as Console.TypeId,
    assert: (condition, ...args) => sync(() => c.assert(condition, ...args)),
    clear: sync(() => c.clear()),
    count: (label) => sync(() => c.count(label)),
    countReset: (label) => sync(() => c.countReset(label)),
    debug: (...args) => sync(() => c.debug(...args)),
    dir: (item, options) => sync(() => c.dir(item, options)),
    dirxml: (...args) => sync(() => c.dirxml(...args)),
    error: (...args) => sync(() => c.error(...args)),
    group: (options) => sync(() => (options?.collapsed ? c.groupCollapsed(options.label) : c.group(options?.label))),
    groupEnd: sync(() => c.groupEnd()),
    info: (...args) => sync(() => c.info(...args)),
    log: (...args) => sync(() => c.log(...args)),
    table: (data, properties) => sync(() => c.table(data, properties)),
    time: (label) => sync(() => c.time(label)),
    timeEnd: (label) => sync(() => c.timeEnd(label)),
    timeLog: (label, ...args) => sync(() => c.timeLog(label, ...args)),
    trace: (...args) => sync(() => c.trace(...args)),
    warn: (...args) => sync(() => c.warn(...args)),
    unsafe: c
  }
  return { console, stdout: () => out.join(""), stderr: () => err.join("") }
}
