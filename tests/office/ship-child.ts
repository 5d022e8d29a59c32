// A process that only ships one journal to the office (in the shipper's own thread) and prints each status as a JSON line: the victim of the kill -9 test.
import { startShipperThread } from '../../electron/office/shipper-link'

const options = JSON.parse(process.argv[2]) as Parameters<typeof startShipperThread>[0]
startShipperThread(options, (status) => process.stdout.write(JSON.stringify(status) + '\n'))
