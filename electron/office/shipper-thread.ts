// The journal shipper's worker thread: runs shipper.ts off the main and ledger threads, so no sale ever waits on the office.
import { parentPort, workerData } from 'node:worker_threads'
import { yieldCpuToSales } from '../ledger/threads'
import { runShipper, type ShipperOptions } from './shipper'

// A backlog of days takes a core for seconds (reading, hashing, encoding); on a two-core shop PC it waits its turn behind a sale.
yieldCpuToSales('thread')
const port = parentPort!
const shipper = runShipper({ ...(workerData as Omit<ShipperOptions, 'onStatus'>), onStatus: (status) => port.postMessage({ status }) })
port.on('message', (message: unknown) => {
  if (message === 'stop') void shipper.stop().then(() => port.postMessage({ stopped: true }))
})
