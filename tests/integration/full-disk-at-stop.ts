// Preload for a launcher child (node --import tsx --import <this> electron/web/cli.ts): the data
// folder's disk is full from the moment the launcher is told to stop, so its last snapshot fails
// with ENOSPC at its first write, as it does on a real full disk (creating the file needs no room).
import { installFsShim } from '../faults/fs-shim'

const shim = installFsShim(process.env.COUNTER_DATA_DIR!)
// Before the launcher's own SIGTERM handler, which starts the stop.
process.prependOnceListener('SIGTERM', () => shim.arm({ cls: 'write', occurrence: 1 }, { kind: 'errno', code: 'ENOSPC' }))
