/**
 * `ridequote ARGS…` run in-process, with a captured console: what reaches stdout and stderr,
 * and whether the command failed. Settings come from `env` only, never from the environment
 * of the test runner. The same program runs as a real process in Processes.ts.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { ConfigProvider, Effect, Exit } from "effect"
import { runRidequote } from "../../src/Cli.js"
import { captureConsole } from "./CapturedConsole.js"

export interface InProcessRun {
  readonly ok: boolean
  readonly stdout: string
  readonly stderr: string
}

export const runInProcess = async (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {}
): Promise<InProcessRun> => {
  const captured = captureConsole()
  const exit = await runRidequote(["node", "ridequote", ...args]).pipe(
    Effect.provide(NodeContext.layer),
    Effect.withConsole(captured.console),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
    Effect.runPromiseExit
  )
  return { ok: Exit.isSuccess(exit), stdout: captured.stdout(), stderr: captured.stderr() }
}
