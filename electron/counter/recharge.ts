// Selling a recharge: validate, journal the intent, call the provider once, journal the outcome;
// an UNKNOWN outcome is only ever settled by check_status, never by sending the order again.
import type { HandlersFor, Sale } from '../contract'
import { lookupAnswered, unansweredLookup, type RechargeReply } from '../partners/recharge-api'
import { collectedPaise } from './collection'
import { NOTHING_SENT, type CounterContext } from './context'
import { overLimitRefusal } from './credit'
import { CounterError } from './errors'
import { rechargeMarginOf } from './margins'
import { intentStamp } from './order-ids'
import { refuseWhileUnresolved } from './pending'
import type { Session } from './session'
import { say } from '../shared/words'

type RechargeChannels = 'catalog.operators' | 'recharge.lookupOperator' | 'recharge.sell' | 'recharge.checkStatus'

/** The number a mobile lookup sample uses in Settings' "Test connection". */
export const TEST_CONNECTION_NUMBER = '9876543210'

export function rechargeHandlers(ctx: CounterContext): HandlersFor<RechargeChannels> {
  // One sale per number at a time: a second press, a second window or a retry cannot double-charge.
  const inFlight = new Set<string>()

  // The session is passed along, not re-read: a mode switch mid-sale must not file it in the other ledger.
  // A disk that refuses the answer holds it (held-answers.ts): the sale is then UNKNOWN, "do not sell again".
  const recordReply = async (session: Session, orderId: string, source: 'transaction' | 'check_status', reply: RechargeReply): Promise<Sale> => {
    const written: { sale?: Sale } = {}
    await ctx.answers.record({
      session,
      kind: 'recharge',
      id: orderId,
      outcome: reply.outcome,
      message: reply.message,
      async write() {
        // An answer that settles nothing does not turn a settled sale back into an open one, even journaled late (sale-writes.ts).
        written.sale = await session.ledger.write('rechargeOutcome', {
          orderId,
          source,
          outcome: reply.outcome,
          providerStatus: reply.providerStatus,
          message: reply.message,
          fpayId: reply.fpayId,
          operatorRef: reply.operatorRef,
        })
      },
      announce: () => ctx.saleChanged(session, orderId),
    })
    return ctx.saleChanged(session, written.sale ?? orderId)
  }

  return {
    async 'catalog.operators'() {
      return { operators: ctx.catalog.operators, circles: ctx.catalog.circles }
    },

    async 'recharge.lookupOperator'({ number }) {
      const api = await ctx.session().rechargeApi()
      const reply = await api.fetchOperator(number)
      ctx.noteContact(reply)
      if (reply.outcome !== 'SUCCESS' || !reply.operator) {
        // The provider's verdict (no operator for this number, a refused token) in its own words; no verdict in ours.
        throw new CounterError('provider_error', lookupAnswered(reply) ? say('recharge.lookupFailed', { problem: reply.message }) : unansweredLookup(reply))
      }
      const operator = ctx.catalog.matchOperator(reply.operator)
      const circle = reply.circle ? ctx.catalog.matchCircle(reply.circle) : undefined
      return { operatorCode: operator?.code ?? null, operatorName: operator?.name ?? reply.operator, circle: circle?.code ?? null }
    },

    async 'recharge.sell'(input) {
      const operator = ctx.catalog.operatorByCode(input.operatorCode)
      if (!operator || operator.kind !== input.kind) {
        throw new CounterError('invalid_input', say('operator.chooseFromList'), { operatorCode: say('operator.chooseFromList') })
      }
      if (inFlight.has(input.number)) {
        throw new CounterError('invalid_input', say('recharge.beingSent'), { number: say('recharge.beingSentField') })
      }
      inFlight.add(input.number)
      try {
        const session = ctx.session()
        const amountPaise = input.amount
        const collected = collectedPaise(input.collected, amountPaise, ctx.settings.current)
        const api = await session.rechargeApi()
        const now = ctx.now()
        // The intent is on disk before the provider hears of the order: after any crash we know to ask.
        // One request to the ledger: the number's open sale, the credit limit, the order id's seq and the line.
        const sending = await ctx.recordWrite(async () => {
          const { day, id } = intentStamp('recharge', session.mode === 'training', now, ctx.settings.current.timezone)
          const margin = rechargeMarginOf(ctx.settings, operator.code, amountPaise)
          const { number, kind, paymentMode, credit } = input
          const intent = { kind, number, operatorCode: operator.code, operatorName: operator.name, circle: input.circle || null, amountPaise, ...day, collectedPaise: collected, paymentMode, margin }
          const written = await session.ledger.write('rechargeIntent', credit ? { ...intent, creditCustomer: credit } : intent, id)
          if ('sale' in written) return written.sale
          if (written.refused === 'unresolved') refuseWhileUnresolved(ctx, { kind: 'recharge', id: written.id }, input.number, 'number')
          throw overLimitRefusal(written)
        }, NOTHING_SENT)
        const orderId = sending.orderId
        await ctx.saleChanged(session, sending)
        const reply = await api.transaction({ number: sending.number, amountPaise: sending.amountPaise, operatorCode: operator.code, orderId })
        ctx.noteContact(reply)
        return recordReply(session, orderId, 'transaction', reply)
      } finally {
        inFlight.delete(input.number)
      }
    },

    async 'recharge.checkStatus'({ orderId }) {
      const session = ctx.session()
      const sale = await ctx.answers.reads(session).sale(orderId)
      if (!sale) throw new CounterError('not_found', say('sale.noSuchOrder', { orderId }))
      // Asked while its own request is on the way, the provider may not have booked it yet, and the
      // request's answer, arriving after the check's, would be dropped: only after it, as the queue does.
      if (sale.state === 'SENDING' && inFlight.has(sale.number)) {
        throw new CounterError('invalid_input', say('pending.sendingNow', { id: orderId }), { orderId: say('pending.sendingNowField') })
      }
      const reply = await (await session.rechargeApi()).checkStatus(orderId, ctx.now().getTime() - Date.parse(sale.createdAt))
      ctx.noteContact(reply)
      // A refused check is about our request, not the order: shown, but no news of the sale to journal (the queue's pending.checked keeps it).
      if (reply.requestRefused) return { ...sale, message: reply.message }
      return recordReply(session, orderId, 'check_status', reply)
    },
  }
}
