/**
 * @ridequote/engine — the ride-quote engine ready to run in your process, for any JavaScript:
 * `createRidequote` starts it (in memory, on a SQLite file or on PostgreSQL, with the shipped
 * markets and the offline route resolver unless told otherwise) and answers with Promises of
 * plain JSON-shaped values, rejecting with `RidequoteError` (the HTTP contract's error body).
 *
 * The published package carries the Effect it runs on inside its own files (an esbuild bundle,
 * tools/packaging/bundle-facade.mjs): it has no `effect` dependency or peer, so it installs
 * beside any Effect, or none. Programs written with Effect 3 that want the engine's layers take
 * `@ridequote/compose`. The SQLite driver (`libsql`) and the PostgreSQL client (`pg`) are
 * optional peer dependencies, loaded only when that storage is chosen. See docs/embedding.md.
 */
export { createRidequote } from "./CreateRidequote.js"
export type {
  MarketsChoice,
  Ridequote,
  RidequoteAccounts,
  RidequoteAudit,
  RidequoteOptions,
  RidequoteTokens,
  RoutesChoice,
  SqlStorageOptions,
  StorageOption
} from "./Ridequote.js"
export { isRidequoteError, RidequoteError } from "./RidequoteError.js"
export type * from "./FacadeTypes.js"
