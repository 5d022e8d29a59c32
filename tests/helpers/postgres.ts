// A throwaway PostgreSQL cluster for one test file: Debian's own server binaries, a temp folder, a free 127.0.0.1 port.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestPostgres {
  host: string
  port: number
  database: string
  user: string
  password: string
  /** A fast shutdown: running statements are cancelled, connections closed. */
  stop(): void
  start(): void
  /** Stopped at once (immediate mode, as a crash would) and started again on the same port. */
  restart(): void
  /** SIGKILL to the postmaster: the cluster is gone until start(). */
  kill(): void
  /** Stops it and deletes its folder; also done at process exit should a test fail before. */
  remove(): void
}

/** The newest installed server (Debian keeps each major version in its own folder). */
function serverBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : []
  const found = versions.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')))
  if (!found) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)')
  return found
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * initdb refuses to run as root, and tests here do run as root: then the cluster belongs to the
 * `postgres` system user (runuser), as Debian's own clusters do. As anyone else it is one's own.
 */
function asOwner(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
}

function run(command: string, args: string[]): void {
  const [file, argv] = asOwner(command, args)
  const done = spawnSync(file, argv, { encoding: 'utf8' })
  if (done.status !== 0) throw new Error(`${command} failed (${done.status}): ${done.stderr || done.stdout}`)
}

/**
 * `durable`: PostgreSQL's own defaults (fsync, synchronous_commit, full_page_writes on), as an office
 * keeps its books; the office benchmark measures with them. Tests leave them off.
 * `maxConnections`: the server's max_connections (100 by default), with no slot reserved for superusers, so
 * the test's login, a superuser, meets "too many clients" as a counter's would at that many.
 */
export async function startTestPostgres({ durable = false, maxConnections }: { durable?: boolean; maxConnections?: number } = {}): Promise<TestPostgres> {
  const bin = serverBin()
  const dir = mkdtempSync(join(tmpdir(), 'counter-pg-'))
  const data = join(dir, 'data')
  const user = 'counter_test'
  const password = `pw-${Math.random().toString(36).slice(2)}-${Date.now()}`
  const pwfile = join(dir, 'pw')
  writeFileSync(pwfile, password, { mode: 0o600 })
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir])
  // Password auth over TCP, as the office's clients use it; no trust anywhere.
  run(join(bin, 'initdb'), ['-D', data, '-U', user, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync', '--no-instructions'])
  rmSync(pwfile)
  const port = await freePort()
  // A test cluster loses nothing worth keeping in a crash of the machine: no fsync (the server still survives a killed process).
  const options =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1` +
    (durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off') +
    (maxConnections === undefined ? '' : ` -c max_connections=${maxConnections} -c superuser_reserved_connections=0`)
  const log = join(dir, 'server.log')
  const start = () => run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', options, '-w', '-t', '30', 'start'])
  const stopIn = (mode: 'fast' | 'immediate') => run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop'])
  const postmasterPid = (): number | null => {
    const file = join(data, 'postmaster.pid')
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null
  }
  let removed = false
  const remove = () => {
    if (removed) return
    removed = true
    process.off('exit', remove)
    const pid = postmasterPid()
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
  process.on('exit', remove)
  start()
  return {
    host: '127.0.0.1',
    port,
    database: 'postgres',
    user,
    password,
    stop: () => stopIn('fast'),
    start,
    restart() {
      stopIn('immediate')
      start()
    },
    kill() {
      const pid = postmasterPid()
      if (pid) process.kill(pid, 'SIGKILL')
      // Its backends end when they notice the postmaster is gone; wait so the port and the folder are free.
      for (let i = 0; i < 200 && postmasterAlive(pid); i++) spawnSync('sleep', ['0.05'])
      rmSync(join(data, 'postmaster.pid'), { force: true })
    },
    remove,
  }
}

function postmasterAlive(pid: number | null): boolean {
  if (!pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
