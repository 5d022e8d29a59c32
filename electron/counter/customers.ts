// The shop's customers: suggestions as digits are typed, one number's last recharge (for repeat), naming and forgetting, each name journaled like a sale.
import { SUGGESTIONS_MAX, type Customer, type HandlersFor } from '../contract'
import type { CounterContext } from './context'
import { CounterError } from './errors'
import { say } from '../shared/words'
import { formatPaise } from '../shared/money'

type CustomerChannels = 'customers.suggest' | 'customers.get' | 'customers.name' | 'customers.forget'


/**
 * Decision: a customer with a due (either way) is not forgotten: the name is what Dues and the
 * statement know them by, and an udhaar outlives any wish to forget. Settle it first, then forget.
 */
function refuseWhileOwing(name: string, duePaise: number): void {
  if (duePaise === 0) return
  const message = duePaise > 0 ? say('customer.owes', { name, amount: formatPaise(duePaise) }) : say('customer.isOwed', { name, amount: formatPaise(-duePaise) })
  throw new CounterError('invalid_input', message, { number: message })
}

export function customerHandlers(ctx: CounterContext): HandlersFor<CustomerChannels> {
  /** Checked and written as one section, so a forget between the look and the line cannot slip in. */
  const known = async (number: string): Promise<Customer> => {
    const customer = await ctx.session().ledger.read('customer', number)
    if (!customer) throw new CounterError('not_found', say('customer.notKnown', { number }), { number: say('customer.notKnownField') })
    return customer
  }

  return {
    async 'customers.suggest'({ digits }) {
      return { customers: await ctx.session().ledger.read('customerSuggestions', digits, SUGGESTIONS_MAX) }
    },

    async 'customers.get'({ number }) {
      return { customer: await ctx.session().ledger.read('customer', number) }
    },

    async 'customers.name'({ number, name }) {
      const session = ctx.session()
      const named = await ctx.recordWrite(async () => {
        const customer = await known(number)
        if (customer.name !== name) await session.ledger.append('customer.named', { number, name })
        return { ...customer, name }
      })
      ctx.emit('customer.changed', { number, name })
      return named
    },

    async 'customers.forget'({ number }) {
      const session = ctx.session()
      await ctx.recordWrite(async () => {
        await known(number)
        const credit = await session.ledger.read('creditStatement', number)
        if (credit) refuseWhileOwing(credit.customer.name, credit.customer.duePaise)
        await session.ledger.append('customer.forgotten', { number })
      })
      ctx.emit('customer.changed', { number, name: null })
      return { number }
    },
  }
}
