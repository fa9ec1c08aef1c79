/** The package ships no types; this is the part of its output the exposition checks read. */
declare module "parse-prometheus-text-format" {
  interface ParsedFamily {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<unknown>
  }
  /** Throws `InvalidLineError` on a line that is not a valid comment, HELP, TYPE or sample line. */
  const parsePrometheusTextFormat: (text: string) => Array<ParsedFamily>
  export default parsePrometheusTextFormat
}
