/**
 * Entry point of the `ridequote` program (`pnpm ridequote …` from the repository root).
 * `disableErrorReporting`: failures are already printed once, readably, by `runRidequote`;
 * the program still exits 1 on failure and 0 after SIGTERM/SIGINT, by itself rather than by
 * process.exit (`exitWhenDone`, Signals.ts).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { runRidequote } from "./Cli.js"
import { exitWhenDone } from "./Signals.js"

runRidequote(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  // The program installs its own loggers (JSON on stdout for serve, logfmt on stderr for the
  // rest); the runtime's pretty logger would add a second copy on stdout.
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true, teardown: exitWhenDone })
)
