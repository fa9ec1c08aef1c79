/**
 * `--help`, rendered in-process for every command: wrapped at the width asked for, every
 * setting with its environment variable and default, no @effect/cli boilerplate.
 */
import { describe, expect, it } from "vitest"
import { ridequoteCommand, VERSION } from "../src/Cli.js"
import { asksForHelp, commandPaths, renderHelp, wrap } from "../src/Help.js"

const root = ridequoteCommand.descriptor
const help = (path: ReadonlyArray<string>, width: number) => renderHelp(root, "ridequote", VERSION, [...path, "--help"], width)

describe("help", () => {
  it("covers every command, each titled with its whole path", () => {
    const paths = commandPaths(root).map((p) => p.join(" "))
    expect(paths).toEqual(expect.arrayContaining(["", "serve", "accounts", "accounts create", "tokens revoke", "keys rotate", "market fit"]))
    for (const path of commandPaths(root)) {
      expect(help(path, 80).split("\n")[0]).toMatch(new RegExp(`^Usage: ${["ridequote", ...path].join(" ")}( |$)`))
    }
  })

  it("wraps every line at the width (80, 60, 120), words intact", () => {
    for (const width of [60, 80, 120]) {
      for (const path of commandPaths(root)) {
        for (const line of help(path, width).split("\n")) {
          // A single word longer than the line (a URL) may overflow; nothing else does.
          if (!/^\s*\S+$/.test(line)) expect(line.length, `${path.join(" ")} @${width}: ${line}`).toBeLessThanOrEqual(width)
        }
      }
    }
    expect(wrap("aaa bbb ccc", 7)).toEqual(["aaa bbb", "ccc"])
  })

  it("serve: every flag names its environment variable and its default", () => {
    const text = help(["serve"], 200)
    const flags: ReadonlyArray<[string, string, string]> = [
      ["--port", "RIDEQUOTE_PORT", "8080"],
      ["--host", "RIDEQUOTE_HOST", "127.0.0.1"],
      ["--database", "RIDEQUOTE_DATABASE", "./data/ridequote.db"],
      ["--markets", "RIDEQUOTE_MARKETS", "the markets shipped with ridequote: NYC, Chicago and Boston fitted on trip records, and every city priced from its tariff file (`ridequote markets list` names them; docs/markets.md)"],
      ["--sample-fallback", "RIDEQUOTE_SAMPLE_FALLBACK", "off (--markets none serves the sample market alone)"],
      ["--routes", "RIDEQUOTE_ROUTES", "offline"],
      ["--refresh-interval", "RIDEQUOTE_REFRESH_INTERVAL", "5"],
      ["--rate-limit", "RIDEQUOTE_RATE_LIMIT", "200"],
      ["--request-timeout", "RIDEQUOTE_REQUEST_TIMEOUT", "30"],
      ["--max-connections", "RIDEQUOTE_MAX_CONNECTIONS", "10000"],
      ["--headers-timeout", "RIDEQUOTE_HEADERS_TIMEOUT", "10"],
      ["--max-connections-per-address", "RIDEQUOTE_MAX_CONNECTIONS_PER_ADDRESS", "1000"],
      ["--cors-origin", "RIDEQUOTE_CORS_ORIGINS", "none (CORS off)"]
    ]
    const entries = text.split(/\n(?=  --)/)
    for (const [flag, variable, value] of flags) {
      // Read as one line: where the renderer wraps is not the point here.
      const entry = entries.find((e) => e.startsWith(`  ${flag} `))?.replace(/\s+/g, " ")
      expect(entry, flag).toBeDefined()
      expect(entry).toContain(`Environment: ${variable}.`)
      expect(entry).toContain(`Default: ${value}`)
    }
    expect(text).toContain("Values: on, off.")
    expect(text).not.toMatch(/This setting is optional|can be set from environment variables|\x1b\[/)
    expect(text).toContain("RIDEQUOTE_LOG_LEVEL")
  })

  it("accounts create --behavior lists the behaviors and the default", () => {
    const text = help(["accounts", "create"], 200)
    expect(text).toMatch(/--behavior BEHAVIOR\n.*Values: market-median, undercut, premium\..*Default: market-median\./)
    expect(text).toMatch(/--token-ttl SECONDS\n.*Default: 86400\./)
    expect(text).toMatch(/--status .*\n.*Default: Active\./)
  })

  it("a group lists its commands with their descriptions", () => {
    const text = help(["accounts"], 100)
    for (const name of ["create", "list", "show", "set-status", "set-token-ttl", "enable-behavior", "rotate-secret"]) {
      expect(text).toMatch(new RegExp(`^  ${name} +\\S`, "m"))
    }
  })

  it("--help counts anywhere before --, after other options too", () => {
    expect(asksForHelp(["serve", "--markets", "m", "--help"])).toBe(true)
    expect(asksForHelp(["serve", "-h"])).toBe(true)
    expect(asksForHelp(["backtest", "--", "--help"])).toBe(false)
    expect(help(["serve", "--markets", "m"], 80).split("\n")[0]).toMatch(/^Usage: ridequote serve \[--port PORT\]/)
  })
})
