/** The library packages' folder names under packages/ (every non-private package), sorted. */
export declare const LIBRARIES: ReadonlyArray<string>
