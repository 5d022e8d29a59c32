// "UPI received" (issue #29 part 1): staff saw the customer's UPI app show a sale, a coupon order or a payment of a
// due paid for its exact amount, and the books record it (sale.upiConfirmed). Counter never sees the payment itself.
import type { HandlersFor } from '../contract'
import type { UpiConfirmKind } from '../ledger/events'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { say } from '../shared/words'

/** What is confirmed: the kind and state of the sale the id names, and whether it was paid by UPI. */
interface UpiTarget {
  kind: UpiConfirmKind
  upi: boolean
  failed: boolean
  upiConfirmedAt: string | null
}

export function upiHandlers(ctx: CounterContext): HandlersFor<'sales.upiReceived'> {
  /** Recharge order ids, coupon attempt ids and payment receipt ids never collide (their prefixes differ). */
  const targetOf = async (id: string): Promise<UpiTarget> => {
    const session = ctx.session()
    const reads = ctx.answers.reads(session)
    const sale = (await reads.sale(id)) ?? (await reads.couponSale(id))
    if (sale) {
      return { kind: 'attemptId' in sale ? 'coupon' : 'recharge', upi: sale.paymentMode === 'upi', failed: sale.state === 'FAILED', upiConfirmedAt: sale.upiConfirmedAt }
    }
    const payment = await session.ledger.read('creditPayment', id)
    if (!payment) throw new CounterError('not_found', say('sale.noSuchOrder', { orderId: id }))
    return { kind: 'payment', upi: payment.mode === 'upi', failed: false, upiConfirmedAt: payment.upiConfirmedAt }
  }

  return {
    async 'sales.upiReceived'({ orderId }) {
      const session = ctx.session()
      // Read and written in one section: two presses (or two windows) journal one line, and the second reads it back.
      const { kind, confirmedAt } = await ctx.recordWrite(async () => {
        const target = await targetOf(orderId)
        if (!target.upi) throw new CounterError('invalid_input', say('upi.notUpi', { id: orderId }))
        if (target.failed) throw new CounterError('invalid_input', say('upi.failedSale', { id: orderId }))
        if (target.upiConfirmedAt !== null) return { kind: target.kind, confirmedAt: target.upiConfirmedAt }
        const entry = await session.ledger.append('sale.upiConfirmed', { kind: target.kind, id: orderId })
        return { kind: target.kind, confirmedAt: entry.at }
      }, say('upi.notRecorded'))
      // The screens that show the sale hear of it as of any other change to it.
      if (kind === 'recharge') await ctx.saleChanged(session, orderId)
      if (kind === 'coupon' && session === ctx.session()) ctx.emit('coupon.changed', (await ctx.answers.reads(session).couponSale(orderId))!)
      return { orderId, upiConfirmedAt: confirmedAt }
    },
  }
}
