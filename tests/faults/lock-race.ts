// Lock race: many Counters starting at once on one folder, fresh or holding a dead process's lock,
// must never both own it, and one of them must get it. the test suite runs a sample (LOCK_RACE_STARTS, or
// tests/tiers.ts's size for the tier); npm run faults runs LOCK_RACE_FULL starts. Racers are child processes that stay up
// between rounds, so every round's starts are released together by one "go".
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { takeoverMarkerName } from '../../electron/ledger/folder-lock'

export const LOCK_RACE_FULL = 200
const CHILD_SCRIPT = resolve(__dirname, 'lock-child.ts')
const REPO_ROOT = resolve(__dirname, '../..')
const LOCK_MODULE = resolve(REPO_ROOT, 'electron/ledger/folder-lock.ts')

const STALE = (deadPid: number) => `${deadPid} 0123456789abcdef0123456789abcdef`
/** The files each round's folder holds when the racers are let go: none, or what a dead process left. */
const ROUND_KINDS = {
  fresh: (): Record<string, string> => ({}),
  'stale lock': (deadPid: number) => ({ 'counter.lock': STALE(deadPid) }),
  "an older Counter's stale lock": (deadPid: number) => ({ 'counter.lock': String(deadPid) }),
  'stale lock whose takeover died': (deadPid: number) => ({
    'counter.lock': STALE(deadPid),
    [takeoverMarkerName(STALE(deadPid))]: `${deadPid} fedcba9876543210fedcba9876543210`,
  }),
} as const
type RoundKind = keyof typeof ROUND_KINDS

export interface LockRaceOptions {
  starts?: number
  /** Racers let go together in each round. */
  racers?: number
  /** How long an owner holds the lock before releasing it. */
  holdMs?: number
  /** The lock implementation under test (another copy, to show an older one fails). */
  lockModule?: string
}

export interface LockRaceResult {
  starts: number
  rounds: number
  /** Times an owner took the lock while another still held it. */
  overlaps: number
  /** Rounds in which no racer got the lock. */
  roundsWithoutOwner: number
  won: number
  refused: number
  /** Racer failures other than "in use", and files a round left behind, each once. */
  problems: string[]
  overlapsByKind: Record<RoundKind, number>
  ms: number
}

interface Racer {
  child: ChildProcessWithoutNullStreams
  next(): Promise<string>
}

function startRacer(lockModule: string, holdMs: number): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, lockModule, String(holdMs)], { cwd: REPO_ROOT })
  const lines: string[] = []
  const waiting: Array<(line: string) => void> = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift()
    if (waiter) waiter(line)
    else lines.push(line)
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise<string>((resolveExit) => child.once('exit', (code) => resolveExit(`error racer exited (${code}): ${stderr.trim()}`)))
  return {
    child,
    next: () => Promise.race([exited, new Promise<string>((resolveLine) => (lines.length ? resolveLine(lines.shift()!) : waiting.push(resolveLine)))]),
  }
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid!
}

/** Counts owners taking the lock while another holds it, from the "+pid"/"-pid" lines. */
function overlapsIn(log: string): number {
  const holding = new Set<string>()
  let overlaps = 0
  for (const line of log.split('\n').filter(Boolean)) {
    const pid = line.slice(1)
    if (line.startsWith('+')) {
      if (holding.size > 0) overlaps++
      holding.add(pid)
    } else holding.delete(pid)
  }
  return overlaps
}

export async function runLockRace({ starts = LOCK_RACE_FULL, racers = 8, holdMs = 30, lockModule = LOCK_MODULE }: LockRaceOptions = {}): Promise<LockRaceResult> {
  const began = Date.now()
  const root = mkdtempSync(join(tmpdir(), 'counter-lock-race-'))
  const pool = Array.from({ length: racers }, () => startRacer(lockModule, holdMs))
  const kinds = Object.keys(ROUND_KINDS) as RoundKind[]
  const result: LockRaceResult = {
    starts: 0,
    rounds: 0,
    overlaps: 0,
    roundsWithoutOwner: 0,
    won: 0,
    refused: 0,
    problems: [],
    overlapsByKind: Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<RoundKind, number>,
    ms: 0,
  }
  const problem = (text: string) => result.problems.includes(text) || result.problems.push(text)
  try {
    for (const racer of pool) {
      const line = await racer.next()
      if (line !== 'ready') throw new Error(`A lock racer did not start: ${line}`)
    }
    const dead = deadPid()
    while (result.starts < starts) {
      const kind = kinds[result.rounds % kinds.length]
      const dir = join(root, `round-${result.rounds}`)
      const log = join(root, `round-${result.rounds}.log`)
      mkdirSync(dir)
      writeFileSync(log, '')
      for (const [name, content] of Object.entries(ROUND_KINDS[kind](dead))) writeFileSync(join(dir, name), content)
      for (const racer of pool) racer.child.stdin.write(`go ${dir} ${log}\n`)
      const answers = await Promise.all(pool.map((racer) => racer.next()))
      const won = answers.filter((answer) => answer === 'won').length
      result.won += won
      result.refused += answers.filter((answer) => answer === 'refused').length
      for (const answer of answers) if (answer.startsWith('error')) problem(answer)
      if (won === 0) result.roundsWithoutOwner++
      const overlaps = overlapsIn(readFileSync(log, 'utf8'))
      result.overlaps += overlaps
      result.overlapsByKind[kind] += overlaps
      const left = readdirSync(dir)
      if (left.length > 0) problem(`a round left ${left.join(', ')} behind`)
      result.starts += racers
      result.rounds++
    }
  } finally {
    for (const racer of pool) racer.child.kill('SIGKILL')
    rmSync(root, { recursive: true, force: true })
  }
  result.ms = Date.now() - began
  return result
}
