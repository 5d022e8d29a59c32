// Where an ESC/POS printer is reached without a driver: a network printer's address (raw TCP, port
// 9100 unless given) or a device or share path written to as a file. A leaf module: the settings
// contract checks with it and the printer link connects with it; its refusals are words of shared/words.
import { say, type Said } from './words'

export type PrinterAddress = { kind: 'network'; host: string; port: number } | { kind: 'path'; path: string }

/** Raw ESC/POS over TCP ("JetDirect", "AppSocket") listens on 9100 on every network receipt printer we know of. */
export const DEFAULT_PRINTER_PORT = 9100

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/
const IPV6 = /^\[([0-9A-Fa-f:.]+)\]$/

/**
 * Reads what the shop typed. Decisions: an absolute path (`/dev/usb/lp0`) or a Windows share or device
 * (`\\SHOP-PC\POS58`, `\\.\COM3`) is written to as a file; anything else is a host name or IP address
 * with an optional `:port`. Returns a plain-words reason when it is neither.
 */
export function parsePrinterAddress(typed: string): PrinterAddress | { error: Said } {
  const text = typed.trim()
  if (text === '') return { error: say('printer.addressEmpty') }
  if (text.startsWith('/') || text.startsWith('\\\\')) return { kind: 'path', path: text }
  const colon = text.lastIndexOf(':')
  const bracketed = text.startsWith('[')
  const hasPort = colon > 0 && (!bracketed || text.lastIndexOf(']') < colon) && (bracketed || text.indexOf(':') === colon)
  const hostPart = hasPort ? text.slice(0, colon) : text
  const portPart = hasPort ? text.slice(colon + 1) : String(DEFAULT_PRINTER_PORT)
  const port = /^\d{1,5}$/.test(portPart) ? Number(portPart) : NaN
  if (!(port >= 1 && port <= 65535)) return { error: say('printer.badPort', { port: portPart }) }
  const v6 = IPV6.exec(hostPart)
  const host = v6 ? v6[1] : hostPart
  if (!v6 && !HOST.test(host)) {
    return { error: say('printer.badAddress', { text }) }
  }
  return { kind: 'network', host, port }
}

/** The address as staff read it in messages. */
export function describePrinterAddress(address: PrinterAddress): string {
  if (address.kind === 'path') return address.path
  const host = address.host.includes(':') ? `[${address.host}]` : address.host
  return address.port === DEFAULT_PRINTER_PORT ? host : `${host}:${address.port}`
}
