// Runs the facade walkthrough (examples/plain-node/src/main.mjs) with the runtime given on the
// command line and checks what it printed: account, token, quote, a refusal with the
// contract's code, and both in the audit. Used by the plain-node-facade and bun-and-deno
// consumer scenarios.
import { spawnSync } from "node:child_process"
import assert from "node:assert/strict"

const [command, ...args] = process.argv.slice(2)
const run = spawnSync(command, args, { encoding: "utf8", timeout: 120_000 })
assert.equal(run.status, 0, `${command} ${args.join(" ")} exited ${run.status}\n${run.stdout}\n${run.stderr}`)
assert.doesNotMatch(run.stderr, /Executing an Effect versioned/)
const steps = run.stdout.trim().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line))
assert.deepEqual(steps.map((s) => s.step), ["account", "token", "quote", "refused", "audit"], run.stdout)
const [account, , quote, refused, audit] = steps
assert.equal(account.status, "Active")
assert.equal(quote.currency, "USD")
assert.deepEqual(quote.standard.map((p) => p.label), ["saver", "balanced", "priority"])
assert.equal(refused.code, "result:invalid-request")
assert.deepEqual(new Set(audit.entries.map((e) => e.requestId)), new Set([quote.requestId, refused.requestId]))
const version = spawnSync(command, ["--version"], { encoding: "utf8" }).stdout.trim().split("\n")[0]
console.log(`${version}: account, token, quote ${quote.standard.map((p) => p.price).join("/")} ${quote.currency}, refusal ${refused.code}, audit ${audit.entries.length} entries`)
