/** Types of tools/markets/catalogue.mjs, for its test. */
export interface Catalogue {
  /** The local date the rules were read at. */
  readonly date: string
  /** docs/markets.md */
  readonly markdown: string
  /** docs/img/markets-map.svg */
  readonly svg: string
}

/** The catalogue and the map for the files in `dir` at `at` (default: the newest version's date). */
export declare const render: (options?: { readonly dir?: string; readonly aciPath?: string; readonly at?: string }) => Catalogue
