/**
 * Runs the market commands on their own (`tsx packages/calibration/src/bin.ts market fit …`), for
 * building the shipped models before the `ridequote` program mounts them.
 */
import * as Command from "@effect/cli/Command"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect } from "effect"
import { backtestCommand, marketCommand } from "./cli.js"

const root = Command.make("ridequote").pipe(Command.withSubcommands([marketCommand, backtestCommand]))

Command.run(root, { name: "ridequote (markets)", version: "0.1.0" })(process.argv).pipe(
  Effect.tapErrorCause((cause) => Console.error(`ridequote: ${String(cause).split("\n")[0] ?? ""}`)),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
