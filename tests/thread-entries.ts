// Vitest's global set-up: bundles the ledger's thread entries from the current sources once per run, before any worker starts (tests/helpers/child-bundle.ts says why).
import { bundleThreadEntries } from './helpers/child-bundle'

export default async function setup(): Promise<void> {
  // Workers, the crash and fault children and the threads they start all inherit it.
  process.env.COUNTER_TEST_THREAD_ENTRIES = await bundleThreadEntries()
}
