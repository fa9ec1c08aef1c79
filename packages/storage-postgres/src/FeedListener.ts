/**
 * LISTEN on the access feed's channel, on a dedicated connection that is watched and replaced.
 *
 * @effect/sql-pg's own `listen()` neither fails nor reconnects when its connection dies (its
 * client's error handler is empty), so a terminated backend would silently end every wake-up.
 * Here the connection's `error`/`end` events and a periodic heartbeat query end the session,
 * and a new one is opened after a short pause, for as long as the scope lives.
 *
 * Each session emits one wake-up as soon as its LISTEN is in place: whatever was committed
 * while no one listened is then read from the snapshot's cursor, so a reconnect always catches up.
 */
import { Data, Deferred, Duration, Effect, Queue, Runtime, Schedule, Stream } from "effect"
import type { Scope } from "effect"
import * as Pg from "pg"
import { FEED_CHANNEL } from "@ridequote/storage-sql"
import type { PostgresConnection } from "./PostgresClient.js"
import { clientConfig } from "./PostgresClient.js"

/** How often the listening connection proves it is alive. */
export const HEARTBEAT_INTERVAL = Duration.seconds(5)
/** A heartbeat slower than this counts as a dead connection. */
export const HEARTBEAT_TIMEOUT = Duration.seconds(3)
/** Pause between reconnect attempts, doubling up to the maximum. */
export const RECONNECT_BACKOFF = Duration.millis(200)
export const MAX_RECONNECT_BACKOFF = Duration.seconds(5)

/** The listening session ended: its connection failed, closed, or missed a heartbeat. */
class ListenLost extends Data.TaggedError("ListenLost")<{ readonly reason: string }> {}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Starts listening in the current scope; the stream emits a wake-up per notification (and per
 * (re)connect). It never fails: losing the connection only pauses wake-ups until the next session.
 */
export const makeFeedWakeups = (
  connection: PostgresConnection
): Effect.Effect<Stream.Stream<void>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const wakeups = yield* Queue.sliding<void>(1)
    const runtime = yield* Effect.runtime<never>()

    /** One LISTEN session: ends (with ListenLost) when its connection is no longer trustworthy. */
    const session = Effect.acquireUseRelease(
      Effect.gen(function*() {
        const lost = yield* Deferred.make<never, ListenLost>()
        const client = new Pg.Client({ ...clientConfig(connection, "listen"), statement_timeout: false })
        const loseWith = (reason: string) => Runtime.runFork(runtime)(Deferred.fail(lost, new ListenLost({ reason })))
        client.on("error", (error) => loseWith(messageOf(error)))
        client.on("end", () => loseWith("connection ended"))
        client.on("notification", (message) => {
          if (message.channel === FEED_CHANNEL) Runtime.runFork(runtime)(Queue.offer(wakeups, undefined))
        })
        return { client, lost }
      }),
      ({ client, lost }) =>
        Effect.gen(function*() {
          yield* Effect.tryPromise({
            try: async () => {
              await client.connect()
              await client.query(`LISTEN ${FEED_CHANNEL}`)
            },
            catch: (error) => new ListenLost({ reason: messageOf(error) })
          })
          yield* Effect.logDebug("listening for access feed changes")
          yield* Queue.offer(wakeups, undefined)
          const heartbeat = Effect.tryPromise({
            try: () => client.query("SELECT 1"),
            catch: (error) => new ListenLost({ reason: messageOf(error) })
          }).pipe(
            Effect.timeoutFail({ duration: HEARTBEAT_TIMEOUT, onTimeout: () => new ListenLost({ reason: "heartbeat timed out" }) }),
            Effect.delay(HEARTBEAT_INTERVAL),
            Effect.forever
          )
          return yield* Effect.raceFirst(Deferred.await(lost), heartbeat)
        }),
      ({ client }) =>
        Effect.promise(() => client.end().catch(() => undefined)).pipe(Effect.timeoutOption(Duration.seconds(1)))
    )

    yield* session.pipe(
      Effect.catchAll((lost) =>
        Effect.logWarning(`access feed listener lost its connection (${lost.reason}); reconnecting`).pipe(
          Effect.zipRight(Effect.fail(lost))
        )
      ),
      Effect.retry(
        Schedule.exponential(RECONNECT_BACKOFF).pipe(
          Schedule.union(Schedule.spaced(MAX_RECONNECT_BACKOFF))
        )
      ),
      Effect.forkScoped
    )

    return Stream.fromQueue(wakeups)
  })
