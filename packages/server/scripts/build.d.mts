/** Types of build.mjs (the program's esbuild build), for the TypeScript that imports it (tools/build-before-tests.ts). */
export declare const PACKAGE_DIR: string
export declare const DIST_DIR: string
export declare const ENTRY: string
export declare const BUILD_INFO: string
export declare const EXTERNAL: ReadonlyArray<string>
/** One self-contained bundle of a workspace command-line entry into `outdir`; resolves to its `bin.js`. */
export declare const bundleCommand: (options: { readonly entry: string; readonly outdir: string }) => Promise<string>
/** Builds dist/; returns what it built and how long it took. */
export declare const build: (options?: { readonly quiet?: boolean }) => Promise<{ seconds: number; bytes: number; inputs: number }>
/** Why dist/ must be rebuilt before it runs, or undefined when it is up to date. */
export declare const isBuildStale: () => string | undefined
