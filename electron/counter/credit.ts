// Credit (udhaar) at the counter: the dues list and a customer's statement, taking a payment of a
// due (journaled, its receipt drawn by receipts.ts), a customer's limit, and the words of the limit check a credit sale passes first.
import type { HandlersFor } from '../contract'
import type { LedgerPort } from '../ledger/ledger-port'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { idToNumber } from './order-ids'
import { formatPaise } from '../shared/money'
import { say } from '../shared/words'

type CreditChannels = 'credit.dues' | 'credit.statement' | 'credit.pay' | 'credit.setLimit'

/** The ledger's refusal of a credit sale that would take the customer past their limit (sale-writes.ts), in the shop's words. */
export function overLimitRefusal({ name, owedPaise, limitPaise }: { name: string; owedPaise: number; limitPaise: number }): CounterError {
  const message = say('credit.overLimit', { name, owed: formatPaise(owedPaise), limit: formatPaise(limitPaise) })
  return new CounterError('invalid_input', message, { creditNumber: message })
}

export function creditHandlers(ctx: CounterContext): HandlersFor<CreditChannels> {
  const statementOf = async (ledger: LedgerPort, number: string) => {
    const statement = await ledger.read('creditStatement', number)
    if (!statement) throw new CounterError('not_found', say('credit.noCustomer', { number }), { number: say('credit.noCustomerField') })
    return statement
  }

  return {
    async 'credit.dues'() {
      const customers = await ctx.session().ledger.read('creditDues')
      return { customers, totalPaise: customers.reduce((total, due) => total + Math.max(due.duePaise, 0), 0) }
    },

    async 'credit.statement'({ number }) {
      return statementOf(ctx.session().ledger, number)
    },

    async 'credit.pay'({ number, amount: amountPaise, mode, note }) {
      const session = ctx.session()
      const now = ctx.now()
      // The due is read in the same section as the payment is written: two windows cannot both take the last rupee.
      const receiptId = await ctx.recordWrite(async () => {
        const { customer } = await statementOf(session.ledger, number)
        if (customer.duePaise <= 0) {
          throw new CounterError('invalid_input', say('credit.owesNothing', { name: customer.name }), { amount: say('credit.nothingDue') })
        }
        if (amountPaise > customer.duePaise) {
          const message = say('credit.moreThanDue', { name: customer.name, due: formatPaise(customer.duePaise) })
          throw new CounterError('invalid_input', message, { amount: message })
        }
        const line = { type: 'credit.payment', data: { number, amountPaise, mode, note: note ?? '', businessDay: ctx.businessDay(now) } } as const
        return session.ledger.write('numberedLine', line, idToNumber('payment', session.mode === 'training', now, ctx.settings.current.timezone))
      }, say('credit.paymentNotRecorded'))
      return { ...(await session.ledger.read('creditPayment', receiptId))!, training: session.mode === 'training' }
    },

    async 'credit.setLimit'({ number, name, limit: limitPaise }) {
      const session = ctx.session()
      const known = await session.ledger.read('creditStatement', number)
      const customerName = name ?? known?.customer.name
      if (!customerName) throw new CounterError('invalid_input', say('credit.nameEnter'), { name: say('credit.nameEnter') })
      await ctx.recordWrite(() => session.ledger.append('credit.limit', { number, name: customerName, limitPaise }))
      return (await statementOf(session.ledger, number)).customer
    },
  }
}
