// The one surface between the counter UI and the core: every domain's channels, schemas and events
// merged into one map, with the result envelope and the transport names. Electron IPC, the
// browser-mode HTTP bridge and tests all carry exactly this; main validates every input with these
// schemas. Everything outside contract/ imports from here, never from a domain's file; but transport.ts, which holds
// no schema: browser mode's bridge reads the paths from it before the core and zod are loaded (web/cli.ts).
// First, before any domain's schemas are built.
import './zod-jitless'
import type { z } from 'zod'
import { appChannels, appEvents } from './app'
import { backupChannels, restoreChannels } from './backup'
import { booksChannels, booksEvents } from './books'
import { mergeDomains, type HandlersOf } from './channel'
import { creditChannels } from './credit'
import { drawerChannels } from './drawer'
import { customerChannels, customerEvents } from './customers'
import { historyChannels } from './history'
import { marginChannels } from './margins'
import { officeChannels } from './office'
import { panChannels, panEvents } from './pan'
import { pendingChannels, pendingEvents } from './pending'
import { printerChannels } from './printer'
import { rechargeChannels, rechargeEvents } from './recharge'
import { OWNER_ONLY_CHANNELS, rolesChannels, rolesEvents } from './roles'
import { salesChannels } from './sales'
import { settingsChannels } from './settings'

export * from './app'
export * from './backup'
export * from './books'
export * from './credit'
export * from './drawer'
export * from './customers'
export * from './envelope'
export * from './history'
export * from './margins'
export * from './office'
export * from './pan'
export * from './pending'
export * from './printer'
export * from './recharge'
export * from './roles'
export * from './sales'
export * from './settings'
export * from './transport'
export { MobileNumberSchema } from './fields'
export { OutcomeSchema, PaymentModeSchema, SaleStateSchema, type Outcome, type PaymentMode, type SaleState } from './sale-record'

// ---------- channels ----------

export const channels = mergeDomains(
  appChannels,
  rechargeChannels,
  salesChannels,
  settingsChannels,
  panChannels,
  pendingChannels,
  booksChannels,
  historyChannels,
  printerChannels,
  marginChannels,
  creditChannels,
  rolesChannels,
  customerChannels,
  officeChannels,
  drawerChannels,
  backupChannels,
  restoreChannels,
)

export type Channels = typeof channels
export type Channel = keyof Channels
export const channelNames = Object.keys(channels) as Channel[]
export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(channels, name)
}
/** The owner-only list (roles.ts) as channel names the compiler checks. */
export const ownerOnlyChannels: ReadonlySet<Channel> = new Set<Channel>(OWNER_ONLY_CHANNELS)

/** What a caller passes (before defaults and trimming). */
export type Input<K extends Channel> = z.input<Channels[K]['input']>
/** What a handler receives (after validation). */
export type ParsedInput<K extends Channel> = z.output<Channels[K]['input']>
export type Output<K extends Channel> = z.infer<Channels[K]['output']>

/** Every handler, typed per channel; domains each provide a part and the parts are merged. */
export type Handlers = HandlersOf<Channels>
export type HandlersFor<K extends Channel> = Pick<Handlers, K>

// ---------- events pushed by the core ----------

export const events = mergeDomains(rechargeEvents, panEvents, pendingEvents, appEvents, booksEvents, rolesEvents, customerEvents)
export type EventName = keyof typeof events
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>
export interface CounterEvent<E extends EventName = EventName> {
  name: E
  payload: EventPayload<E>
}
