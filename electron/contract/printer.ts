// The receipt printer: the OS's printers to pick from, a test page, and whether the printer is ready.
import { z } from 'zod'
import type { HandlersOf } from './channel'
import { None } from './fields'

/** 'system': through the OS driver (desktop app); 'escpos': raw ESC/POS to a network printer or a device path. */
export const PrinterKindSchema = z.enum(['system', 'escpos'])
export type PrinterKind = z.infer<typeof PrinterKindSchema>

/**
 * What the printer says of itself (ESC/POS DLE EOT), in one word for the screen and `message` in plain words.
 * 'silent': it took the connection but answers no status query (many do not); 'unknown': a driver's printer.
 */
export const PrinterStateSchema = z.enum(['ready', 'paper-low', 'no-paper', 'cover-open', 'offline', 'unreachable', 'silent', 'unknown'])
export type PrinterState = z.infer<typeof PrinterStateSchema>

export const printerChannels = {
  'printer.list': { input: None, output: z.object({ printers: z.array(z.object({ name: z.string(), isDefault: z.boolean() })) }) },
  'printer.testPage': { input: None, output: z.object({ printer: z.string() }) },
  'printer.status': { input: None, output: z.object({ state: PrinterStateSchema, message: z.string() }) },
} as const
export type PrinterHandlers = HandlersOf<typeof printerChannels>
