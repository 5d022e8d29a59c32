// The wire to an ESC/POS printer reached without a driver: ask a network printer how it is (DLE EOT)
// and send it a job over raw TCP, or write a job to a device or share path; every failure becomes a
// PrinterError whose message tells shop staff what to check: a said reference (shared/words),
// spoken in the screen's language where it reaches a screen (the dispatch), English in logs.
import { constants, type Stats } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import type { PrinterState } from '../contract'
import { describePrinterAddress, type PrinterAddress } from '../shared/printer-address'
import { english, say, type Said } from '../shared/words'

export interface PrinterStatus {
  state: PrinterState
  /** In plain words for shop staff, naming the printer's address. */
  message: Said
}

export class PrinterError extends Error {
  constructor(
    readonly state: PrinterState,
    readonly said: Said,
  ) {
    super(english(said))
    this.name = 'PrinterError'
  }
}

export interface LinkOptions {
  /** How long connecting, and then sending, may take before the printer counts as unreachable. */
  timeoutMs: number
}

/**
 * Decision: 3 s. On a shop's network a printer that is on connects within milliseconds; 3 s rides out
 * a busy Wi-Fi link while still telling staff about a switched-off printer before they wonder.
 */
export const DEFAULT_LINK: LinkOptions = { timeoutMs: 3000 }

/** States in which a job would be lost or pile up: the print is refused with the message instead. */
const REFUSING: ReadonlySet<PrinterState> = new Set(['no-paper', 'cover-open', 'offline', 'unreachable'])

/**
 * Decision: a printer that answers real-time status does so in milliseconds (it answers even while
 * offline, before any queued data); 500 ms covers a slow shop network. A printer quiet that long is
 * 'silent' and printing goes on, since many cheap printers never answer DLE EOT. The three questions
 * go in one write and share this one wait: a printer answering all three costs one round trip, and one
 * that answers only the first costs these 500 ms once a job (asked one at a time, each question it
 * ignored cost 500 ms: a second a job).
 */
const ANSWER_MS = 500

/** Bytes written at a time (see sendOverNetwork). */
const WRITE_PIECE = 4096

/** After the job is sent, how long to wait for the printer to close its side before we close ours. */
const CLOSE_GRACE_MS = 2000

const STATE_WORDS = {
  ready: 'printerState.ready',
  'paper-low': 'printerState.paperLow',
  'no-paper': 'printerState.noPaper',
  'cover-open': 'printerState.coverOpen',
  offline: 'printerState.offline',
  silent: 'printerState.silent',
  unreachable: 'printerState.unreachable',
  unknown: 'printerState.unreachable',
} as const satisfies Record<PrinterState, string>

const messageFor = (state: PrinterState, where: string): Said => say(STATE_WORDS[state], { where })

const brokeOff = (where: string) => say('printer.brokeOff', { where })

const status = (state: PrinterState, where: string): PrinterStatus => ({ state, message: messageFor(state, where) })

function connectionError(error: NodeJS.ErrnoException, where: string): PrinterError {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new PrinterError('unreachable', say('printer.refused', { where }))
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new PrinterError('unreachable', say('printer.notFound', { where }))
    case 'ECONNRESET':
    case 'EPIPE':
      return new PrinterError('unreachable', brokeOff(where))
    default:
      return new PrinterError('unreachable', messageFor('unreachable', where))
  }
}

/** A TCP connection to the printer, or a PrinterError once the timeout passes without one. */
function openSocket(address: { host: string; port: number }, where: string, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address.host, port: address.port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new PrinterError('unreachable', messageFor('unreachable', where)))
    }, timeoutMs)
    socket.once('connect', () => {
      clearTimeout(timer)
      resolve(socket)
    })
    // Before the connection this rejects; after it, a later error must not go unheard, whoever listens.
    socket.on('error', (error) => {
      clearTimeout(timer)
      socket.destroy()
      reject(connectionError(error, where))
    })
  })
}

/** Reads the bytes a socket receives one at a time, each within a time limit (null when none came). */
function replies(socket: Socket) {
  const received: number[] = []
  let waiting: ((byte: number | null) => void) | null = null
  const settle = (byte: number | null) => {
    const wake = waiting
    waiting = null
    wake?.(byte)
  }
  socket.on('data', (chunk: Buffer) => {
    received.push(...chunk)
    if (waiting) settle(received.shift()!)
  })
  socket.on('close', () => settle(null))
  return (withinMs: number) =>
    new Promise<number | null>((resolve) => {
      if (received.length) return resolve(received.shift()!)
      if (socket.destroyed) return resolve(null)
      const timer = setTimeout(() => settle(null), withinMs)
      waiting = (byte) => {
        clearTimeout(timer)
        resolve(byte)
      }
    })
}

/** A real-time status byte has bit 0 and 7 clear and bits 1 and 4 set; anything else is not an ESC/POS answer. */
const isStatusByte = (byte: number) => (byte & 0x93) === 0x12

/** DLE EOT 1 (printer: offline), 2 (offline cause: cover open, paper end, error), 4 (roll paper sensor: near end, end). */
const STATUS_QUESTIONS = Uint8Array.of(0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 4)

/**
 * The printer's state from its answers to DLE EOT 1, 2 and 4, asked in one write on an open connection.
 * Decision: the answers carry no sign of which question they answer, only their order; a printer that
 * gives fewer than three is read by its first alone (the one every answering printer gives), since a
 * paper-sensor answer taken for the offline cause would read "near end" as "cover open".
 */
async function askStatus(socket: Socket, where: string): Promise<PrinterStatus> {
  const next = replies(socket)
  socket.write(STATUS_QUESTIONS)
  const until = Date.now() + ANSWER_MS
  const answers: number[] = []
  while (answers.length < 3) {
    const byte = await next(until - Date.now())
    // Anything else is no answer, and what came after it cannot be told apart either.
    if (byte === null || !isStatusByte(byte)) break
    answers.push(byte)
  }
  if (answers.length === 0) return status('silent', where)
  const printer = answers[0]
  const [cause, paper] = answers.length === 3 ? [answers[1], answers[2]] : [null, null]
  if (cause !== null && cause & 0x04) return status('cover-open', where)
  if ((cause !== null && cause & 0x20) || (paper !== null && paper & 0x60)) return status('no-paper', where)
  if (printer & 0x08) return status('offline', where)
  if (paper !== null && paper & 0x0c) return status('paper-low', where)
  return status('ready', where)
}

function fileError(error: NodeJS.ErrnoException, where: string): PrinterError {
  switch (error.code) {
    case 'ENOENT':
    case 'ENXIO':
    case 'ENODEV':
      return new PrinterError('unreachable', say('printer.noDevice', { where }))
    case 'EACCES':
    case 'EPERM':
      return new PrinterError('unreachable', say('printer.notAllowed', { where }))
    case 'EBUSY':
      return new PrinterError('unreachable', say('printer.inUse', { where }))
    default:
      return new PrinterError('unreachable', say('printer.cannotWrite', { where, code: error.code ?? error.message }))
  }
}

/**
 * Decision: a printer path must be a printer: a character device on Linux and macOS (/dev/usb/lp0,
 * /dev/ttyUSB0), on Windows a printer share or port, never a file or a folder. A file at the path was
 * written over from its first byte (the journal's own segment once, by "Print test page", which staff may press).
 */
const isPrinter = (found: Stats) => (process.platform === 'win32' ? !found.isFile() && !found.isDirectory() : found.isCharacterDevice())

/**
 * Why a printer path saved in Settings cannot be a printer: something at it that is a file, a folder or a pipe.
 * Nothing at it is accepted (a printer unplugged now is plugged in later); each open looks again (openPath).
 */
export async function notAPrinterPath(address: PrinterAddress): Promise<Said | null> {
  if (address.kind !== 'path' || process.platform === 'win32') return null
  const found = await stat(address.path).catch(() => null)
  return found && !isPrinter(found) ? say('printer.notADevice', { where: describePrinterAddress(address) }) : null
}

/**
 * Decision: a path is opened write-only and never created, so a printer that is not there is "no
 * printer", not a new file in /dev; such a printer says nothing back, so its status is 'silent'. What
 * is at the path is looked at before it is opened (opening a pipe for writing would wait for a reader)
 * and again once open (it may have been swapped meanwhile); anything but a printer is refused unwritten.
 */
async function openPath(path: string, where: string) {
  const notAPrinter = () => new PrinterError('unreachable', say('printer.notADevice', { where }))
  try {
    // Windows printer shares do not all answer a look before they are opened: there, only what was opened is judged.
    if (process.platform !== 'win32' && !isPrinter(await stat(path))) throw notAPrinter()
    const file = await open(path, constants.O_WRONLY)
    if (isPrinter(await file.stat())) return file
    await file.close()
    throw notAPrinter()
  } catch (error) {
    if (error instanceof PrinterError) throw error
    throw fileError(error as NodeJS.ErrnoException, where)
  }
}

/** How the printer is, in one word and plain words; never throws. */
export async function queryPrinterStatus(address: PrinterAddress, { timeoutMs }: LinkOptions = DEFAULT_LINK): Promise<PrinterStatus> {
  const where = describePrinterAddress(address)
  try {
    if (address.kind === 'path') {
      await (await openPath(address.path, where)).close()
      return status('silent', where)
    }
    const socket = await openSocket(address, where, timeoutMs)
    try {
      return await askStatus(socket, where)
    } finally {
      socket.destroy()
    }
  } catch (error) {
    if (error instanceof PrinterError) return { state: error.state, message: error.said }
    throw error
  }
}

/** Resolves once `done` settles, or rejects with `error` after `ms`. */
function within<T>(done: Promise<T>, ms: number, error: () => PrinterError): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), ms)))
  return Promise.race([done, late]).finally(() => clearTimeout(timer))
}

const stalled = (where: string) => () => new PrinterError('offline', say('printer.stalled', { where }))

async function sendOverNetwork(address: { host: string; port: number }, where: string, bytes: Uint8Array, timeoutMs: number): Promise<PrinterStatus> {
  const socket = await openSocket(address, where, timeoutMs)
  try {
    // Asked on the job's own connection: some printers take one connection at a time.
    const before = await askStatus(socket, where)
    if (REFUSING.has(before.state)) throw new PrinterError(before.state, before.message)
    if (socket.destroyed) throw new PrinterError('unreachable', brokeOff(where))
    await new Promise<void>((resolve, reject) => {
      socket.once('error', (error) => reject(connectionError(error, where)))
      // Decision: the timeout is for a printer that stops taking bytes, not for the whole job: a long
      // picture takes a slow printer seconds to print and it reads only as fast as it prints. Written
      // in pieces, each piece taken restarts the socket's idle timer.
      socket.setTimeout(timeoutMs, () => reject(stalled(where)()))
      for (let at = 0; at < bytes.length; at += WRITE_PIECE) socket.write(bytes.subarray(at, at + WRITE_PIECE))
      socket.end(() => resolve())
    })
    socket.setTimeout(0)
    // Our FIN follows the job; the printer closes its side once it has read it all. Closing ours first
    // could reset the connection before the printer has the last bytes, so wait a little for it.
    const closed = new Promise((resolve) => socket.once('close', resolve))
    await within(closed, Math.min(timeoutMs, CLOSE_GRACE_MS), stalled(where)).catch(() => undefined)
    return before
  } finally {
    socket.destroy()
  }
}

async function sendToPath(path: string, where: string, bytes: Uint8Array, timeoutMs: number): Promise<PrinterStatus> {
  const file = await openPath(path, where)
  const written = file.write(bytes).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => Promise.reject(fileError(error, where)),
  )
  // A device write that blocks (printer off on a USB port) cannot be cancelled; the file closes once it returns.
  written.finally(() => file.close()).catch(() => undefined)
  await within(written, timeoutMs, stalled(where))
  return status('silent', where)
}

/**
 * Sends one job (receipt, image or test page). A network printer is asked its status first, and a job
 * it could not print (no paper, cover open, offline) is refused with that message and not sent; a
 * 'silent' printer gets the job. Resolves to the status the printer gave before the job; throws PrinterError.
 */
export async function sendToPrinter(address: PrinterAddress, bytes: Uint8Array, { timeoutMs }: LinkOptions = DEFAULT_LINK): Promise<PrinterStatus> {
  const where = describePrinterAddress(address)
  return address.kind === 'path' ? sendToPath(address.path, where, bytes, timeoutMs) : sendOverNetwork(address, where, bytes, timeoutMs)
}
