// How differences read at the counter: always with their sign, a true minus for money short.
import { formatPaise } from '../../electron/shared/money'

/** 150 -> "+₹1.50", -150 -> "−₹1.50", 0 -> "₹0.00". */
export function formatSignedPaise(paise: number): string {
  if (paise > 0) return `+${formatPaise(paise)}`
  if (paise < 0) return `−${formatPaise(-paise)}`
  return formatPaise(0)
}
