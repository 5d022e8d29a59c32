// The two tiers of the suite, in one place: which files each runs, how large its samples are, and which files must run alone.
//
// `npm test` (COUNTER_TEST_TIER=fast) is what a contributor runs after each change: every unit and integration
// file, small samples of the crash test, the fault matrix, the ledger model and the lock race, and one Chromium
// smoke. `npm run test:all` (COUNTER_TEST_TIER=all, what CI runs) adds every end-to-end and office file and the
// full samples. Decision: with no tier named (one file run by hand) the run is `all`, so a file run alone is run
// whole. The heavy sweeps stay apart: `npm run crash` and `npm run faults`.
import type { CrashPlanOptions } from './crash/crash-runs'

export type Tier = 'fast' | 'all'

export const TIER: Tier = process.env.COUNTER_TEST_TIER === 'fast' ? 'fast' : 'all'

/** Integration files that build big books (a 31 MB journal, 100,000 sales): `npm run test:all` runs them, `npm test` does not. */
const SCALE_FILES = ['tests/integration/ledger-chores.test.ts', 'tests/integration/customer-scale.test.ts']

/** What each tier runs: globs under the repository's root, less those it leaves out. */
export const TIER_FILES: Record<Tier, { include: string[]; exclude: string[]; note: string }> = {
  fast: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/faults/**/*.test.ts', 'tests/e2e/counter.e2e.test.ts'],
    exclude: SCALE_FILES,
    note: `left to \`npm run test:all\`: the other end-to-end files (Chromium), the office files (PostgreSQL), ${SCALE_FILES.join(' and ')}, and the full samples`,
  },
  all: {
    include: ['tests/**/*.test.ts'],
    exclude: [],
    note: 'the full crash sweep and fault matrix are `npm run crash` and `npm run faults`',
  },
}

/**
 * Files that must not run beside the integration files, each group with why. Each group runs after the files
 * before it, with as many files at once as it says; everything else runs first, two at a time, one a core. A file
 * named by two groups is the first one's.
 */
export const RUN_APART: readonly { name: string; files: string[]; atOnce: 1 | 2; why: string }[] = [
  {
    name: 'long books',
    files: ['tests/integration/ledger-chores.test.ts', 'tests/e2e/books-progress.e2e.test.ts'],
    atOnce: 2,
    why:
      "ledger-chores measures sales' delays against an audit's own length, so nothing else may share its cores but a file as even as itself; books-progress replays 600k journal lines, a core's work for half a minute, and beside another Chromium file it starved that file's core (books.e2e's coupon quote missed its wait). Side by side each keeps a core, and the pair takes a minute where one after the other took 88 s",
  },
  {
    name: 'Chromium',
    files: ['tests/e2e/*.e2e.test.ts'],
    atOnce: 2,
    why: 'Chromium is several processes of its own: two end-to-end files at once, never beside the integration files',
  },
]

/**
 * The files that take longest, longest first within each group (seconds of one `npm run test:all` here): each group starts them before the rest, so no long
 * file starts near the end and leaves a core idle. Decision: a list and
 * not vitest's own timing cache, which a fresh clone (CI) does not have; without it vitest runs the largest files
 * first, and the 31-line crash test, the longest of all, started last.
 */
export const LONGEST_FIRST: readonly string[] = [
  'tests/integration/crash.test.ts', // 155
  'tests/office/connections.test.ts', // 71
  'tests/office/shipping.test.ts', // 67
  'tests/faults/ledger-model.test.ts', // 62
  'tests/office/pacing.test.ts', // 59
  'tests/faults/fault-matrix.test.ts', // 52
  'tests/e2e/books-progress.e2e.test.ts', // 56
  'tests/integration/ledger-chores.test.ts', // 37
  'tests/e2e/glance.e2e.test.ts', // 92
  'tests/e2e/shop-day.e2e.test.ts', // 32
  'tests/e2e/roles.e2e.test.ts', // 25
  'tests/e2e/narrow-screens.e2e.test.ts', // 23
  'tests/e2e/printer.e2e.test.ts', // 22
  'tests/e2e/books.e2e.test.ts', // 20
]

interface Samples {
  crash: CrashPlanOptions
  faultKinds: readonly string[] | 'every'
  modelSequences: number
  lockRaceStarts: number
}

/** Each sample in each tier. */
const SAMPLES: { [Name in keyof Samples]: Record<Tier, Samples[Name]> } = {
  /**
   * Crash test (tests/integration/crash.test.ts): in `fast` each flow meets each kill point once, the victims
   * alternating, in the second repetition (whose power cut tears the journal's tail); in `all` both victims twice.
   */
  crash: { fast: { repetitions: 1, firstRepetition: 1, oneVictimEach: true }, all: { repetitions: 2 } },
  /**
   * Fault matrix (tests/faults/fault-matrix.test.ts): which kinds of its one-run-per-kind sample run. In `fast`, the
   * day without a fault and one of each family: the disk, the wire after the provider booked, the wire before it,
   * a refused check, the clock, a killed process and a killed ledger thread.
   */
  faultKinds: {
    fast: ['none', 'ENOSPC-write', 'cut-after-booking', 'refuse-connection', 'refuse-check-credentials', 'clock+1d', 'sigkill', 'thread-kill'],
    all: 'every',
  },
  /** Ledger model: random command sequences (tests/faults/ledger-model.test.ts). */
  modelSequences: { fast: 25, all: 100 },
  /** Folder lock: racing starts, eight a round (tests/integration/folder-lock.test.ts); 32 is the fewest that try every kind of round. */
  lockRaceStarts: { fast: 32, all: 40 },
}

/** This tier's value of one sample. */
export const sample = <Name extends keyof Samples>(name: Name): Samples[Name] => SAMPLES[name][TIER]

/** The line a tier's run prints about its samples. */
export const samplesLine = (): string =>
  Object.entries(SAMPLES)
    .map(([name, sizes]) => `${name} ${JSON.stringify(sizes[TIER])}`)
    .join(', ')
