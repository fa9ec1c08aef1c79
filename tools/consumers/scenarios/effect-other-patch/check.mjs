import { execFileSync, spawnSync } from "node:child_process"
import assert from "node:assert/strict"

// One Effect instance: npm resolved every peer to the consumer's own 3.22.3.
const tree = JSON.parse(execFileSync("npm", ["ls", "effect", "--all", "--json"], { encoding: "utf8" }))
const versions = new Set()
const walk = (node) => {
  for (const [name, child] of Object.entries(node.dependencies ?? {})) {
    if (name === "effect") versions.add(child.version)
    walk(child)
  }
}
walk(tree)
assert.deepEqual([...versions], ["3.22.3"], `effect versions in the tree: ${[...versions].join(", ")}`)

const run = spawnSync(process.execPath, ["walkthrough.mjs"], { encoding: "utf8" })
assert.equal(run.status, 0, run.stderr)
assert.doesNotMatch(run.stdout + run.stderr, /Executing an Effect versioned/, "a second Effect runtime warned")
const result = JSON.parse(run.stdout.trim().split("\n").at(-1))
assert.ok(result.providers > 0 && result.audited === 1, run.stdout)
console.log(`one effect (3.22.3), no version warning; quote with ${result.providers} market prices, 1 audit entry`)
