/**
 * A PostgreSQL server of the test's own: a private cluster (initdb into a temporary folder,
 * trust authentication, a free port on 127.0.0.1) run with Debian's binaries under
 * /usr/lib/postgresql/<version>/bin, so a test can stop and start the whole server without
 * touching the machine's shared one. As root the binaries run as the `postgres` user (they
 * refuse root), through `runuser`.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

const binDir = (): string | undefined => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a))
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin")
}

const postgresUser = (): { uid: number; gid: number } | undefined => {
  try {
    const [uid, gid] = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim().split("\n").concat(
      execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim()
    )
    return { uid: Number(uid), gid: Number(gid) }
  } catch {
    return undefined
  }
}

const BIN = binDir()
const isRoot = process.getuid?.() === 0
const RUN_AS = isRoot ? postgresUser() : undefined

/** Why a private cluster cannot be made here, if it cannot. */
const unavailableBecause = (): string | undefined => {
  if (BIN === undefined) return "no PostgreSQL server binaries (initdb) under /usr/lib/postgresql/<version>/bin"
  if (isRoot && RUN_AS === undefined) return "running as root, and there is no `postgres` user to run the server as"
  if (isRoot && !existsSync("/usr/sbin/runuser")) return "running as root, and there is no /usr/sbin/runuser"
  return undefined
}

/**
 * Whether a private cluster can be made here (binaries present; as root, a `postgres` user and
 * runuser). When it cannot, the tests that need one are skipped with a loud message, and under
 * CI=true the run fails instead, as for the machine's PostgreSQL (@ridequote/storage-postgres/testing).
 */
export const privatePostgresAvailable: boolean = (() => {
  const why = unavailableBecause()
  if (why === undefined) return true
  const message = `a private PostgreSQL cluster cannot be started: ${why}`
  if (process.env["CI"] === "true") throw new Error(`${message}: under CI=true the tests that stop their own PostgreSQL must run`)
  console.warn(`\n${"!".repeat(100)}\n!! SKIPPING the tests that stop their own PostgreSQL: ${message}\n${"!".repeat(100)}\n`)
  return false
})()

const run = (program: string, args: ReadonlyArray<string>): void => {
  const path = join(BIN ?? "", program)
  if (isRoot) execFileSync("/usr/sbin/runuser", ["-u", "postgres", "--", path, ...args], { stdio: "ignore" })
  else execFileSync(path, args, { stdio: "ignore" })
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
  /** Stops the server at once (`pg_ctl stop -m immediate`): every connection is cut, none accepted. */
  readonly stop: () => void
  readonly start: () => void
  /** Stops it (if running) and removes its folder. */
  readonly remove: () => void
}

export const startPrivatePostgres = async (): Promise<PrivatePostgres> => {
  const folder = mkdtempSync(join(tmpdir(), "ridequote-pg-"))
  if (RUN_AS !== undefined) chownSync(folder, RUN_AS.uid, RUN_AS.gid)
  const data = join(folder, "data")
  run("initdb", ["-D", data, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-instructions"])
  const port = await freePort()
  // fsync off: the cluster is thrown away; what is under test is the service, not the disk.
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`
  let running = false
  const start = () => {
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(folder, "log"), "-w", "start"])
    running = true
  }
  const stop = () => {
    if (!running) return
    run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    running = false
  }
  start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    remove: () => {
      try {
        stop()
      } finally {
        rmSync(folder, { recursive: true, force: true })
      }
    }
  }
}
