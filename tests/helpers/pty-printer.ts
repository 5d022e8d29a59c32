// A character device standing in for a USB printer's /dev/usb/lp0: a pseudo-terminal in raw mode, whose other end
// (held by a small python3 process, as Node opens no terminals of its own) hands back every byte written to it.
import { spawn } from 'node:child_process'

export interface PtyPrinter {
  /** The device's path, like /dev/pts/3. */
  path: string
  /** Every byte written to the device so far. */
  received(): Buffer
  close(): void
}

// Raw mode: the terminal passes ESC/POS bytes as they are (no newline turned into CR LF, no echo).
const HOLD_A_PTY = `
import os, pty, sys, tty
main, device = pty.openpty()
tty.setraw(device)
print(os.ttyname(device), flush=True)
while True:
    sys.stdout.buffer.write(os.read(main, 65536))
    sys.stdout.flush()
`

export function startPtyPrinter(): Promise<PtyPrinter> {
  const child = spawn('python3', ['-c', HOLD_A_PTY], { stdio: ['ignore', 'pipe', 'inherit'] })
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    let path: string | null = null
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (path !== null) return
      // The first line is the device's name; every byte after it came through the device.
      const head = Buffer.concat(chunks.splice(0))
      const newline = head.indexOf(0x0a)
      if (newline < 0) return void chunks.push(head)
      path = head.subarray(0, newline).toString('utf8')
      chunks.push(head.subarray(newline + 1))
      resolve({ path, received: () => Buffer.concat(chunks), close: () => child.kill() })
    })
  })
}
