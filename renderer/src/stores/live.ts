// Routes the core's pushed events into the stores, so every screen shows the current truth.
import type { CounterEvent, EventName } from '../../../electron/contract'
import { onEvent } from '../api'
import { useBooksProgressStore } from './booksProgress'
import { useHistoryStore } from './history'
import { usePendingStore } from './pending'
import { useSalesStore } from './sales'
import { useStatusStore } from './status'

function isEvent<E extends EventName>(event: CounterEvent, name: E): event is CounterEvent<E> {
  return event.name === name
}

/** Subscribes the stores to events; returns the unsubscribe. */
export function startLiveUpdates(): () => void {
  const status = useStatusStore()
  const sales = useSalesStore()
  const pending = usePendingStore()
  const booksProgress = useBooksProgressStore()
  const history = useHistoryStore()
  return onEvent((event) => {
    if (isEvent(event, 'status.changed')) status.apply(event.payload)
    else if (isEvent(event, 'pending.changed')) pending.apply(event.payload.items)
    else if (isEvent(event, 'sale.changed')) sales.applySale(event.payload)
    else if (isEvent(event, 'books.progress')) booksProgress.apply(event.payload)
    else if (isEvent(event, 'customer.changed')) {
      sales.nameCustomer(event.payload.number, event.payload.name)
      history.nameCustomer(event.payload.number, event.payload.name)
    }
    // A sale that went unanswered, or got its answer, joins or leaves the queue (coupons follow their own events).
    if (isEvent(event, 'sale.changed') || isEvent(event, 'coupon.changed')) pending.reloadSoon()
  })
}
