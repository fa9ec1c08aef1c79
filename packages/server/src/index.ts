/**
 * @ridequote/server — the `ridequote` program, and the pieces it is composed of for those who
 * want to run the service from code of their own.
 */
export { describeFailure, ridequoteCommand, runRidequote, VERSION } from "./Cli.js"
export { accountsCommand } from "./AccountsCommand.js"
export { keysCommand } from "./KeysCommand.js"
export { tokensCommand } from "./TokensCommand.js"
export { OperatorLive, withOperator } from "./Operator.js"
export { LogLevelLive, OperatorLogsLive, ServiceLogsLive } from "./Logging.js"
export * from "./Settings.js"
export { migrateDatabase, StorageLive, type StorageError, type StoragePorts } from "./Storage.js"
