/**
 * The in-memory view of revocations and account status that token verification consults
 * instead of storage. It applies this instance's own revocations at once, follows the
 * storage's change feed on a schedule (and at once when the feed pushes a wake-up), and fails
 * closed when its view is too old.
 */
import { Clock, Context, Duration, Effect, Either, Layer, Option, Queue, Stream } from "effect"
import { AccessViewStale } from "../Errors.js"
import type { StorageUnavailable } from "../Errors.js"
import type { AccountId, Jti, KeyId } from "../Ids.js"
import { AccessFeed } from "../ports/AccessFeed.js"
import type { AccessChange } from "../ports/AccessFeed.js"
import { AccountStore } from "../ports/AccountStore.js"
import type { StoredAccount } from "../ports/AccountStore.js"

/** How often the snapshot reads the change feed unless configured. */
export const DEFAULT_REFRESH_INTERVAL = Duration.seconds(5)
/**
 * The longest refresh interval, and the most a view may ever be out of date: a view older than
 * `stalenessBoundOf` (two refresh intervals, never more than this) refuses bearer calls (503)
 * rather than honour a token that may have been revoked elsewhere (docs/security.md,
 * "Failing closed").
 */
export const MAX_STALENESS = Duration.seconds(60)

/**
 * How old a view may be before it is refused: two refresh intervals (one missed or slow read
 * is tolerated, a second is not), never over MAX_STALENESS. 10 s with the default 5 s interval.
 */
export const stalenessBoundOf = (config?: AccessSnapshotConfig): Duration.Duration =>
  Duration.min(Duration.times(refreshIntervalOf(config), 2), MAX_STALENESS)

/** Settings of the access snapshot. */
export interface AccessSnapshotConfig {
  /** How often to read the change feed; clamped to (0, 60 s]. */
  readonly refreshInterval: Duration.DurationInput
}

/**
 * This instance's in-memory view of revocations and account status, kept current from the
 * storage's change feed, so that verifying a bearer token never reads storage on the hot path.
 * Stale beyond MAX_STALENESS, it fails closed (AccessViewStale).
 */
export interface AccessSnapshot {
  /**
   * Fails with AccessViewStale when the last successful refresh is older than the staleness
   * bound (`stalenessBoundOf`), or when a pushed change could not be read since.
   */
  readonly ensureFresh: Effect.Effect<void, AccessViewStale>
  /** `ensureFresh` at a time the caller has already read (token verification reads the clock once). */
  readonly freshAt: (nowMs: number) => Either.Either<void, AccessViewStale>
  readonly isRevoked: (jti: Jti) => boolean
  /** Until when a revoked jti is remembered (its token's expiry, epoch ms); undefined when not revoked. */
  readonly revokedUntil: (jti: Jti) => number | undefined
  /** The account (with its version and revoke-all cutoff) as last seen; loaded from storage the first time. */
  readonly account: (id: AccountId) => Effect.Effect<Option.Option<StoredAccount>, StorageUnavailable>
  /** The account as last seen, without loading it: undefined when this view has not seen it yet. */
  readonly cachedAccount: (id: AccountId) => StoredAccount | undefined
  /** True once signing key `kid` was retired at once (`keys retire`): its tokens are refused. */
  readonly isKeyRetired: (kid: string) => boolean
  /** Applies a key retirement made on this instance, before the feed brings it back. */
  readonly markKeyRetired: (kid: KeyId) => Effect.Effect<void>
  /** Applies a revocation made on this instance, before the feed brings it back. */
  readonly markRevoked: (jti: Jti, expiresAtMs: number) => Effect.Effect<void>
  /** Applies an account change made on this instance (ignored when an equal or newer version is held). */
  readonly accountChanged: (account: StoredAccount) => Effect.Effect<void>
  /** Reads the feed once; the layer runs this on the schedule. */
  readonly refresh: Effect.Effect<void, StorageUnavailable>
}

/** The AccessSnapshot service's tag. */
export const AccessSnapshot = Context.GenericTag<AccessSnapshot>("@ridequote/core/AccessSnapshot")

/** The interval actually used: the configured one, or the default when absent or not positive, never over 60 s. */
export const refreshIntervalOf = (config?: AccessSnapshotConfig): Duration.Duration => {
  const wanted = config === undefined ? DEFAULT_REFRESH_INTERVAL : Duration.decode(config.refreshInterval)
  if (!Duration.isFinite(wanted) || Duration.toMillis(wanted) <= 0) return DEFAULT_REFRESH_INTERVAL
  return Duration.min(wanted, MAX_STALENESS)
}

/**
 * Feed batches read per refresh before giving up until the next tick. A refresh only counts
 * (moves `lastRefreshed`) once it has caught up with the head of the feed, so an instance that
 * cannot keep up goes stale and fails closed instead of honouring tokens it has not yet seen
 * revoked.
 */
const MAX_BATCHES_PER_REFRESH = 50

/**
 * Builds the snapshot and its refresh fiber in the current scope. Fails when the feed cannot be
 * read at start: an instance with no view at all has nothing to serve from.
 */
export const makeAccessSnapshot = (config?: AccessSnapshotConfig) =>
  Effect.gen(function*() {
    const feed = yield* AccessFeed
    const store = yield* AccountStore
    const interval = refreshIntervalOf(config)
    const maxStalenessMs = Duration.toMillis(stalenessBoundOf(config))

    const startedMs = yield* Clock.currentTimeMillis
    const start = yield* feed.start(startedMs)

    // Plain mutable maps: `isRevoked` must answer synchronously on the hot path, and every
    // mutation below happens inside one synchronous step, so no fiber sees a half-applied change.
    const revoked = new Map<string, number>(start.revoked.map((r) => [r.jti, r.expiresAtMs]))
    // Keys retired at once while this instance runs (its key ring may still hold them until it
    // reloads; a ring loaded after the retirement never does). Few, and never forgotten.
    const retiredKeys = new Set<string>()
    const accounts = new Map<AccountId, StoredAccount>()
    /**
     * Keeps the newest version only: a feed reload, a first load and this instance's own update
     * can finish in any order, and the one that read earlier must not overwrite a later one.
     */
    const remember = (stored: StoredAccount) => {
      const held = accounts.get(stored.account.id)
      if (held === undefined || held.version < stored.version) accounts.set(stored.account.id, stored)
    }
    let cursor = start.cursor
    let lastRefreshedMs = startedMs
    /**
     * A push said a change was committed and the read behind it failed: this view is known to
     * miss something (a revocation, perhaps), so it is refused until a read succeeds, however
     * recent the last good one.
     */
    let missedPushedChange = false

    const dropExpired = (nowMs: number) => {
      for (const [jti, expiresAtMs] of revoked) if (expiresAtMs <= nowMs) revoked.delete(jti)
    }

    /** Re-reads the accounts this instance has cached; others load on first use anyway. */
    const reloadAccounts = (ids: ReadonlySet<AccountId>) =>
      Effect.forEach(
        [...ids].filter((id) => accounts.has(id)),
        (id) =>
          Effect.map(store.findById(id), (found) =>
            Option.match(found, {
              onNone: () => accounts.delete(id),
              onSome: remember
            })),
        { discard: true }
      )

    const applyBatch = (changes: ReadonlyArray<AccessChange>, nowMs: number) => {
      const changedAccounts = new Set<AccountId>()
      for (const change of changes) {
        if (change._tag === "TokenRevoked") {
          if (change.expiresAtMs > nowMs) revoked.set(change.jti, change.expiresAtMs)
        } else if (change._tag === "KeyRetired") {
          retiredKeys.add(change.kid)
        } else {
          changedAccounts.add(change.accountId)
        }
      }
      return reloadAccounts(changedAccounts)
    }

    const readFeed = Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      for (let batch = 0; batch < MAX_BATCHES_PER_REFRESH; batch++) {
        const next = yield* feed.since(cursor)
        yield* applyBatch(next.changes, nowMs)
        // Only once the whole batch is applied: a failure part-way re-reads it next time.
        cursor = next.cursor
        if (next.changes.length === 0) {
          dropExpired(nowMs)
          lastRefreshedMs = nowMs
          missedPushedChange = false
          return
        }
      }
      yield* Effect.logWarning("access snapshot is behind the change feed; will continue at the next refresh")
    })

    // One refresh at a time: the scheduled one and any explicit call must not interleave their cursors.
    const lock = yield* Effect.makeSemaphore(1)
    const refresh: Effect.Effect<void, StorageUnavailable> = lock.withPermits(1)(readFeed)

    // A failed refresh keeps the previous view; `ensureFresh` decides when it is too old.
    const refreshOrKeep = (trigger: string) =>
      refresh.pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`access snapshot refresh (${trigger}) failed; keeping the previous view`, cause)
        )
      )

    yield* Effect.sleep(interval).pipe(Effect.zipRight(refreshOrKeep("scheduled")), Effect.forever, Effect.forkScoped)

    // Pushed wake-ups: read the feed at once. A sliding queue of one coalesces a burst that
    // arrives while a read is running into a single follow-up read, which sees all of it.
    if (feed.wakeups !== undefined) {
      const pending = yield* Queue.sliding<void>(1)
      yield* Stream.runForEach(feed.wakeups, () => Queue.offer(pending, undefined)).pipe(Effect.forkScoped)
      const pushedRead = refresh.pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.sync(() => void (missedPushedChange = true)),
            Effect.logWarning("access snapshot could not read a pushed change; refusing bearer calls until a read succeeds", cause)
          )
        )
      )
      yield* Queue.take(pending).pipe(Effect.zipRight(pushedRead), Effect.forever, Effect.forkScoped)
    }

    const stale = new AccessViewStale({
      message: "this instance's view of revocations and account status is too old; storage may be unreachable"
    })

    const fresh = Either.right(undefined)
    const freshAt = (nowMs: number): Either.Either<void, AccessViewStale> =>
      nowMs - lastRefreshedMs > maxStalenessMs || missedPushedChange ? Either.left(stale) : fresh

    return AccessSnapshot.of({
      ensureFresh: Effect.flatMap(Clock.currentTimeMillis, freshAt),
      freshAt,
      cachedAccount: (id) => accounts.get(id),
      isRevoked: (jti) => revoked.has(jti),
      revokedUntil: (jti) => revoked.get(jti),
      account: (id) =>
        Effect.suspend(() => {
          const cached = accounts.get(id)
          if (cached !== undefined) return Effect.succeedSome(cached)
          return Effect.map(store.findById(id), (found) => {
            if (Option.isNone(found)) return found
            remember(found.value)
            // What is held now: a newer version may have arrived while this read was in flight.
            return Option.fromNullable(accounts.get(id))
          })
        }),
      markRevoked: (jti, expiresAtMs) => Effect.sync(() => void revoked.set(jti, expiresAtMs)),
      isKeyRetired: (kid) => retiredKeys.size !== 0 && retiredKeys.has(kid),
      markKeyRetired: (kid) => Effect.sync(() => void retiredKeys.add(kid)),
      accountChanged: (account) => Effect.sync(() => remember(account)),
      refresh
    })
  })

/**
 * The snapshot as a scoped layer: reads the feed's start at build, then refreshes every
 * `refreshInterval` (default 5 s, at most 60 s) until the scope closes; it fails closed when
 * its view is older than two intervals (`stalenessBoundOf`) or a pushed change went unread.
 */
export const AccessSnapshotLive = (
  config?: AccessSnapshotConfig
): Layer.Layer<AccessSnapshot, StorageUnavailable, AccessFeed | AccountStore> =>
  Layer.scoped(AccessSnapshot, makeAccessSnapshot(config))
