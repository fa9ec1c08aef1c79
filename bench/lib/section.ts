/**
 * A section of `pnpm bench`: a module exporting a `Section` whose `run` returns
 * `{ title, table, results }` (plus the targets it checks). `run.ts` lists the sections; a new
 * one (e.g. bench/scale-out.ts) is one import and one entry there.
 */

export interface Target {
  readonly what: string
  readonly target: string
  readonly value: string
  /** undefined: not measured (e.g. the section failed or was capped). */
  readonly pass: boolean | undefined
}

export interface SectionReport {
  readonly title: string
  /** Printed as is (a Markdown table, and notes). */
  readonly table: string
  /** Written to the JSON file under the section id. */
  readonly results: unknown
  readonly targets?: ReadonlyArray<Target>
}

/** Shared between the sections of one invocation (e.g. layers reads the quote's CPU/request). */
export type Shared = Map<string, unknown>

export interface Section {
  readonly id: string
  readonly title: string
  readonly run: (shared: Shared) => Promise<SectionReport>
}

export const passFail = (pass: boolean | undefined): string => (pass === undefined ? "n/a" : pass ? "PASS" : "FAIL")
