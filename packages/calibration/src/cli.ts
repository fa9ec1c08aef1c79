/**
 * @ridequote/calibration/cli — the `market fit|evaluate` and `backtest` commands, for mounting in
 * a command-line program. Light: each command loads the fitting tools only when it runs.
 */
export { backtestCommand, evaluateCommand, fitCommand, marketCommand, routesOption } from "./internal/Commands.js"
