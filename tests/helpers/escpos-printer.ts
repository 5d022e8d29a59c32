// A network ESC/POS receipt printer for tests: listens on 127.0.0.1 like a real one on port 9100,
// keeps every byte it receives, answers the DLE EOT status queries, and decodes what it was sent
// into what would come out on paper (lines, bold and large text, QR codes, cuts, drawer kicks, images).
import { once } from 'node:events'
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import CodepageEncoder from '@point-of-sale/codepage-encoder'

/**
 * What the printer says it is doing. 'silent' takes jobs and prints them but never answers a status query (many cheap
 * printers); 'first-only' is ready but answers DLE EOT 1 alone, never 2 or 4.
 */
export type FakePrinterStatus = 'ready' | 'paper-near-end' | 'paper-out' | 'cover-open' | 'offline' | 'silent' | 'first-only'

export interface DecodedImage {
  /** In dots; GS v 0 bands printed back to back at one width are one image. */
  width: number
  height: number
  /** 1 bit a dot, rows of width/8 bytes, most significant bit leftmost, 1 = black. */
  data: Uint8Array
}

export interface DecodedPrint {
  /** Text as printed, one entry a line (blank lines included), trailing spaces dropped. */
  lines: string[]
  /** Each run of text printed bold (ESC E, ESC G or ESC ! bit 3), trimmed, split at line ends. */
  bold: string[]
  /** Each run of text printed larger than normal (GS ! or ESC ! double width/height), trimmed. */
  large: string[]
  /** The data of every QR code printed (GS ( k store, then print). */
  qr: string[]
  cuts: number
  /** Line feeds (LF, ESC d, ESC J) after a cut and before the next job's ESC @: paper fed past the cut, wasted. */
  feedsAfterCut: number
  drawerKicks: number
  images: DecodedImage[]
  /** The n of every DLE EOT n status query in the stream. */
  statusQueries: number[]
}

// Real-time status answers (Epson ESC/POS reference, DLE EOT): every byte has bits 1 and 4 set (0x12).
// n=1 printer: bit 3 offline. n=2 offline cause: bit 2 cover open, bit 5 stopped by paper end, bit 6 error.
// n=3 error: bit 6 auto-recoverable error. n=4 roll paper: bits 2+3 near end, bits 5+6 paper end.
const FIXED = 0x12
const answers: Record<Exclude<FakePrinterStatus, 'silent'>, Record<number, number>> = {
  ready: { 1: FIXED, 2: FIXED, 3: FIXED, 4: FIXED },
  'first-only': { 1: FIXED },
  'paper-near-end': { 1: FIXED, 2: FIXED, 3: FIXED, 4: FIXED | 0x0c },
  'paper-out': { 1: FIXED | 0x08, 2: FIXED | 0x20, 3: FIXED, 4: FIXED | 0x60 },
  'cover-open': { 1: FIXED | 0x08, 2: FIXED | 0x04, 3: FIXED, 4: FIXED },
  offline: { 1: FIXED | 0x08, 2: FIXED | 0x40, 3: FIXED | 0x40, 4: FIXED },
}

export interface FakePrinter {
  readonly host: string
  readonly port: number
  /** As the shop would type it in Settings ("127.0.0.1:40123"). */
  readonly address: string
  /** Changeable at any time; applies to the next status query. */
  status: FakePrinterStatus
  /** Every byte received, all connections in the order they came. */
  received(): Uint8Array
  /** The bytes of each connection, one entry a connection. */
  jobs(): Uint8Array[]
  /** For each connection, how many of the packets it received held a status query (DLE EOT): how many writes asked. */
  statusWrites(): number[]
  /** decodeEscPos(received()) */
  decoded(): DecodedPrint
  /** Forgets what was received so far. */
  clear(): void
  /** Stops listening: from now on a connection to the port is refused (the printer was switched off). */
  refuse(): Promise<void>
  close(): Promise<void>
}

export interface FakePrinterOptions {
  status?: FakePrinterStatus
  /** Listen where a printer stood before (one switched off and on again keeps its address); any free port by default. */
  port?: number
}

export async function startFakePrinter(options: FakePrinterOptions = {}): Promise<FakePrinter> {
  let chunks: Buffer[] = []
  let jobs: Buffer[][] = []
  let statusWrites: number[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    const job: Buffer[] = []
    jobs.push(job)
    const connection = statusWrites.push(0) - 1
    // DLE EOT n may arrive split across packets: the last two bytes of a chunk carry over.
    let tail = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      job.push(chunk)
      const scan = Buffer.concat([tail, chunk])
      let i = 0
      let asked = false
      while (i + 2 < scan.length) {
        if (scan[i] === 0x10 && scan[i + 1] === 0x04) {
          asked = true
          const answer = printer.status === 'silent' ? undefined : answers[printer.status][scan[i + 2]]
          if (answer !== undefined) socket.write(Buffer.of(answer))
          i += 3
        } else i++
      }
      tail = scan.subarray(i)
      if (asked) statusWrites[connection]++
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => sockets.delete(socket))
  })
  server.listen(options.port ?? 0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const stopListening = async () => {
    if (!server.listening) return
    const closed = once(server, 'close')
    server.close()
    await closed
  }
  const printer: FakePrinter = {
    host: '127.0.0.1',
    port,
    address: `127.0.0.1:${port}`,
    status: options.status ?? 'ready',
    received: () => new Uint8Array(Buffer.concat(chunks)),
    jobs: () => jobs.map((job) => new Uint8Array(Buffer.concat(job))),
    statusWrites: () => [...statusWrites],
    decoded: () => decodeEscPos(printer.received()),
    clear: () => {
      chunks = []
      jobs = []
      statusWrites = []
    },
    refuse: stopListening,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await stopListening()
    },
  }
  return printer
}

export interface StalledPrinter {
  readonly port: number
  readonly address: string
  close(): Promise<void>
}

/**
 * An address where a connection is never completed, as with a hung printer or a host that drops
 * packets: a listening socket that never accepts, its accept queue (backlog 1) filled, so the kernel
 * drops further SYNs and connect() waits. It lives in a worker held in Atomics.wait, because this
 * thread's event loop would accept every connection.
 */
export async function startStalledPrinter(): Promise<StalledPrinter> {
  const gate = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
     const server = require('node:net').createServer()
     server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
       parentPort.postMessage(server.address().port)
       Atomics.wait(workerData, 0, 0)
       process.exit(0)
     })`,
    { eval: true, workerData: gate },
  )
  const [port] = (await once(worker, 'message')) as [number]
  // Connections the queue holds complete; fill it until one does not (the kernel's queue length varies).
  const fillers: Socket[] = []
  for (let attempt = 0; attempt < 8; attempt++) {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.on('error', () => socket.destroy())
    const connected = await Promise.race([once(socket, 'connect').then(() => true), sleep(250).then(() => false)])
    if (!connected) {
      socket.destroy()
      break
    }
    fillers.push(socket)
  }
  return {
    port,
    address: `127.0.0.1:${port}`,
    close: async () => {
      for (const socket of fillers) socket.destroy()
      const exited = once(worker, 'exit')
      Atomics.store(gate, 0, 1)
      Atomics.notify(gate, 0)
      await exited
    },
  }
}

// ---------- the decoder ----------

const cp437 = CodepageEncoder.getEncoding('cp437').codepoints

/** A GS V function: 0/1/48/49 cut at once, 65/66/97/98/103/104 take one more byte (a feed before the cut). */
const CUT_WITH_FEED = new Set([65, 66, 97, 98, 103, 104])
const CUT_NOW = new Set([0, 1, 48, 49])

/**
 * Reads an ESC/POS byte stream as a printer would. Knows the commands a receipt uses and throws on
 * any other, so a test never passes over bytes nobody understood.
 */
export function decodeEscPos(bytes: Uint8Array): DecodedPrint {
  const out: DecodedPrint = { lines: [], bold: [], large: [], qr: [], cuts: 0, feedsAfterCut: 0, drawerKicks: 0, images: [], statusQueries: [] }
  let line = ''
  let boldRun = ''
  let largeRun = ''
  let emphasized = false
  let doubleStrike = false
  let modeBold = false
  let sizeLarge = false
  let modeLarge = false
  let storedQr: string | null = null
  let cut = false
  let lastImageEnd = -1
  let i = 0

  const need = (count: number, what: string) => {
    if (i + count > bytes.length) throw new Error(`ESC/POS stream ends inside ${what} at byte ${i}`)
  }
  const flushRuns = () => {
    if (boldRun.trim()) out.bold.push(boldRun.trim())
    if (largeRun.trim()) out.large.push(largeRun.trim())
    boldRun = ''
    largeRun = ''
  }
  const endLine = () => {
    flushRuns()
    out.lines.push(line.trimEnd())
    line = ''
  }
  const styleChange = () => flushRuns()
  const isBold = () => emphasized || doubleStrike || modeBold
  const isLarge = () => sizeLarge || modeLarge
  const reset = () => {
    if (line) endLine()
    emphasized = doubleStrike = modeBold = sizeLarge = modeLarge = false
  }

  while (i < bytes.length) {
    const start = i
    const b = bytes[i++]
    if (b >= 0x20 && b !== 0x7f) {
      const char = String.fromCodePoint(b < 0x80 ? b : cp437[b])
      line += char
      if (isBold()) boldRun += char
      if (isLarge()) largeRun += char
      continue
    }
    if (b === 0x0a) {
      if (cut) out.feedsAfterCut++
      endLine()
      continue
    }
    if (b === 0x0d) continue
    need(1, 'a command')
    const c = bytes[i++]
    if (b === 0x10 && c === 0x04) {
      need(1, 'DLE EOT')
      out.statusQueries.push(bytes[i++])
      continue
    }
    if (b === 0x1c && c === 0x2e) continue // FS . cancels Kanji mode
    if (b === 0x1b) {
      switch (c) {
        case 0x40: // ESC @
          reset()
          cut = false
          continue
        case 0x32: // ESC 2 default line spacing
          continue
        case 0x70: // ESC p m t1 t2
          need(3, 'ESC p')
          i += 3
          out.drawerKicks++
          continue
      }
      need(1, `ESC ${String.fromCharCode(c)}`)
      const n = bytes[i++]
      switch (c) {
        case 0x45: // ESC E bold
          styleChange()
          emphasized = (n & 1) === 1
          continue
        case 0x47: // ESC G double strike
          styleChange()
          doubleStrike = (n & 1) === 1
          continue
        case 0x21: // ESC ! print mode
          styleChange()
          modeBold = (n & 0x08) !== 0
          modeLarge = (n & 0x30) !== 0
          continue
        case 0x64: // ESC d n: print and feed n lines
          if (cut) out.feedsAfterCut += n
          endLine()
          for (let k = 1; k < n; k++) out.lines.push('')
          continue
        case 0x4a: // ESC J n: print and feed n dots
          if (cut) out.feedsAfterCut++
          if (line) endLine()
          continue
        case 0x74: // ESC t n: code page; only table 0 (PC437) is read
          if (n !== 0) throw new Error(`ESC t ${n} at byte ${start}: only code page 0 (PC437) is decoded`)
          continue
        case 0x2d: // ESC - underline
        case 0x4d: // ESC M font
        case 0x61: // ESC a justification
        case 0x33: // ESC 3 line spacing
        case 0x52: // ESC R international character set
        case 0x7b: // ESC { upside down
          continue
      }
      throw new Error(`Unknown ESC/POS command ESC 0x${c.toString(16)} at byte ${start}`)
    }
    if (b === 0x1d) {
      switch (c) {
        case 0x21: {
          // GS ! n: width and height multipliers
          need(1, 'GS !')
          const n = bytes[i++]
          styleChange()
          sizeLarge = n !== 0
          continue
        }
        case 0x42: // GS B reverse
          need(1, 'GS B')
          i++
          continue
        case 0x4c: // GS L left margin
        case 0x57: // GS W print area width
          need(2, 'GS L/W')
          i += 2
          continue
        case 0x56: {
          // GS V cut
          need(1, 'GS V')
          const m = bytes[i++]
          if (CUT_WITH_FEED.has(m)) {
            need(1, 'GS V')
            i++
          } else if (!CUT_NOW.has(m)) throw new Error(`GS V ${m} at byte ${start} is not a cut`)
          if (line) endLine()
          out.cuts++
          cut = true
          continue
        }
        case 0x76: {
          // GS v 0 m xL xH yL yH d...: raster bit image
          need(6, 'GS v 0')
          if (bytes[i] !== 0x30) throw new Error(`GS v 0x${bytes[i].toString(16)} at byte ${start} is not a raster image`)
          const widthBytes = bytes[i + 2] + bytes[i + 3] * 256
          const height = bytes[i + 4] + bytes[i + 5] * 256
          i += 6
          need(widthBytes * height, 'raster data')
          const data = bytes.slice(i, i + widthBytes * height)
          i += widthBytes * height
          const previous = out.images.at(-1)
          if (previous && lastImageEnd === start && previous.width === widthBytes * 8) {
            const joined = new Uint8Array(previous.data.length + data.length)
            joined.set(previous.data)
            joined.set(data, previous.data.length)
            previous.data = joined
            previous.height += height
          } else {
            out.images.push({ width: widthBytes * 8, height, data })
          }
          lastImageEnd = i
          continue
        }
        case 0x28: {
          // GS ( k pL pH cn fn ...: 2D symbol
          need(3, 'GS (')
          if (bytes[i] !== 0x6b) throw new Error(`GS ( 0x${bytes[i].toString(16)} at byte ${start} is not decoded`)
          const length = bytes[i + 1] + bytes[i + 2] * 256
          i += 3
          need(length, 'GS ( k')
          const [cn, fn] = [bytes[i], bytes[i + 1]]
          if (cn === 0x31 && fn === 0x50) storedQr = Buffer.from(bytes.subarray(i + 3, i + length)).toString('latin1')
          if (cn === 0x31 && fn === 0x51) {
            if (storedQr === null) throw new Error(`QR code printed at byte ${start} before any was stored`)
            out.qr.push(storedQr)
          }
          i += length
          continue
        }
      }
      throw new Error(`Unknown ESC/POS command GS 0x${c.toString(16)} at byte ${start}`)
    }
    throw new Error(`Unknown ESC/POS byte 0x${b.toString(16)} at byte ${start}`)
  }
  if (line) endLine()
  return out
}

/** Black dots in rows [fromRow, toRow) of a decoded image: where something was drawn. */
export function blackDots(image: DecodedImage, fromRow: number, toRow: number): number {
  const rowBytes = image.width / 8
  let count = 0
  for (let index = fromRow * rowBytes; index < Math.min(toRow, image.height) * rowBytes; index++) {
    for (let bits = image.data[index]; bits; bits &= bits - 1) count++
  }
  return count
}
