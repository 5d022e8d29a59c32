// The PAN agent desk: agents (VLEs), coupon sales, password resets and the provider balance.
// Every call is journaled before it is sent and its answer after; coupon answers are checked
// against the balance chain on arrival, and an unconfirmed coupon order is never resent.
import type { Agent, CouponSale, HandlersFor, PanBalance, PasswordReset } from '../contract'
import type { CouponReply, ResetReply } from '../partners/pan-api'
import { collectedPaise } from './collection'
import { NOTHING_SENT, type CounterContext } from './context'
import { checkCouponAnswer } from './coupon-checks'
import { CounterError } from './errors'
import { formatPaise } from '../shared/money'
import { couponMarginOf } from './margins'
import { idToNumber, intentStamp } from './order-ids'
import { refuseWhileUnresolved } from './pending'
import { expectedPanBalance } from './reconcile'
import type { Session } from './session'
import { say } from '../shared/words'

type PanChannels =
  | 'pan.states'
  | 'pan.agents.list'
  | 'pan.agents.create'
  | 'pan.agents.refresh'
  | 'pan.coupons.quote'
  | 'pan.coupons.sell'
  | 'pan.coupons.checkStatus'
  | 'pan.coupons.list'
  | 'pan.resets.request'
  | 'pan.resets.check'
  | 'pan.resets.list'
  | 'pan.balance.refresh'

// What is true when the answer to a call that reached the provider cannot be journaled.
const AGENT_ASKED = say('agent.askedNotRecorded')
const RESET_ASKED = say('reset.askedNotRecorded')

/** Aadhaar numbers are sent to the provider once and kept only as their last four digits. */
export const maskUid = (uid: string) => `XXXX XXXX ${uid.slice(-4)}`

export async function panBalanceOf(session: Session): Promise<PanBalance> {
  const expected = await expectedPanBalance(session.ledger)
  return { balancePaise: expected?.balancePaise ?? null, readAt: expected?.at ?? null }
}

export function panHandlers(ctx: CounterContext): HandlersFor<PanChannels> {
  const agentOrThrow = async (session: Session, vleId: string): Promise<Agent> => {
    const agent = await session.ledger.read('getAgent', vleId)
    if (!agent || agent.status === 'NOT_CREATED') {
      throw new CounterError('invalid_input', say('agent.none', { vleId }), { vleId: say('agent.chooseFromList') })
    }
    return agent
  }

  const readBalance = async (session: Session): Promise<PanBalance> => {
    const reply = await (await session.panApi()).balance()
    ctx.noteContact(reply)
    if (reply.outcome !== 'SUCCESS' || reply.balancePaise === null) {
      throw new CounterError('provider_error', say('pan.balanceUnread', { problem: reply.message }))
    }
    await ctx.recordWrite(() => session.ledger.append('pan.balance.read', { balancePaise: reply.balancePaise!, source: 'balance', businessDay: ctx.businessDay(ctx.now()) }))
    ctx.emit('status.changed', await ctx.status())
    return panBalanceOf(session)
  }

  /** After every PAN operation; a failed read leaves the last known balance showing, with its time. */
  const refreshBalanceQuietly = (session: Session) => readBalance(session).catch(() => undefined)

  const quote = async (session: Session, { type, qty }: { type: 1 | 2; qty: number }) => {
    const { couponMaxQty, couponDefaultRatesPaise } = ctx.settings.current
    if (qty > couponMaxQty) {
      throw new CounterError('invalid_input', say('coupon.qtyMax', { max: couponMaxQty }), { qty: say('input.atMost', { max: couponMaxQty }) })
    }
    const charged = await session.ledger.read('lastChargedRatePaise', type)
    const ratePaise = charged ?? (type === 1 ? couponDefaultRatesPaise.p : couponDefaultRatesPaise.e)
    const balance = await panBalanceOf(session)
    const amountPaise = ratePaise * qty
    return {
      ratePaise,
      rateSource: charged === null ? ('default' as const) : ('last_charged' as const),
      amountPaise,
      balance,
      enough: balance.balancePaise === null ? null : balance.balancePaise >= amountPaise,
      maxQty: couponMaxQty,
    }
  }

  /** A disk that refuses the answer holds it (held-answers.ts): the sale is then UNKNOWN, "do not sell again". */
  const recordCouponAnswer = async (session: Session, sale: CouponSale, source: 'coupon_req' | 'coupon_status', reply: CouponReply, problems: string[]) => {
    const written: { sale?: CouponSale } = {}
    await ctx.answers.record({
      session,
      kind: 'coupon',
      id: sale.attemptId,
      outcome: reply.outcome,
      message: reply.message,
      write: async () => void (written.sale = await session.ledger.write('couponOutcome', {
        attemptId: sale.attemptId,
        source,
        outcome: reply.outcome,
        providerStatus: reply.providerStatus,
        message: reply.message,
        orderId: reply.orderId,
        date: reply.date,
        vleName: reply.vleName,
        ratePaise: reply.ratePaise,
        amountPaise: reply.amountPaise,
        oldBalPaise: reply.oldBalPaise,
        newBalPaise: reply.newBalPaise,
        problems,
      })),
      announce: () => couponChanged(session, sale.attemptId),
    })
    return written.sale ? announceCoupon(session, ctx.answers.reads(session).shownCoupon(written.sale)) : couponChanged(session, sale.attemptId)
  }

  /** Tells the screens of a coupon sale as the shop must treat it (held-answers.ts). */
  const announceCoupon = (session: Session, sale: CouponSale): CouponSale => {
    if (session === ctx.session()) ctx.emit('coupon.changed', sale)
    return sale
  }
  const couponChanged = async (session: Session, attemptId: string): Promise<CouponSale> => announceCoupon(session, (await ctx.answers.reads(session).couponSale(attemptId))!)

  const recordResetAnswer = async (session: Session, attemptId: string, source: 'pass_reset' | 'pass_status', reply: ResetReply) => {
    ctx.noteContact(reply)
    const { outcome, orderId, resetStatus, vleName, message } = reply
    await ctx.recordWrite(() => session.ledger.append('pan.reset.answer', { attemptId, source, outcome, orderId, resetStatus, vleName, message }), RESET_ASKED)
    await refreshBalanceQuietly(session)
    return resetOrThrow(session, attemptId)
  }

  const resetOrThrow = async (session: Session, attemptId: string): Promise<PasswordReset> => {
    const reset = await session.ledger.read('passwordReset', attemptId)
    if (!reset) throw new CounterError('not_found', say('reset.none', { attemptId }))
    return reset
  }

  return {
    async 'pan.states'() {
      return { states: ctx.catalog.states }
    },

    async 'pan.agents.list'() {
      return { agents: await ctx.session().ledger.read('agents') }
    },

    async 'pan.agents.create'(input) {
      const session = ctx.session()
      if (!ctx.catalog.states.some((s) => s.code === input.stateCode)) {
        throw new CounterError('invalid_input', say('agent.stateFromList'), { stateCode: say('agent.stateFromList') })
      }
      const api = await session.panApi()
      const { uid, ...fields } = input
      await ctx.recordWrite(async () => {
        const existing = await session.ledger.read('getAgent', input.vleId)
        if (existing && existing.status !== 'NOT_CREATED') {
          throw new CounterError('invalid_input', say('agent.taken', { vleId: input.vleId }), { vleId: say('agent.takenField') })
        }
        await session.ledger.append('pan.agent.submitted', { ...fields, uidMasked: maskUid(uid) })
      }, NOTHING_SENT)
      const reply = await api.addVle({
        vle_id: input.vleId,
        vle_name: input.name,
        vle_mob: input.mobile,
        vle_email: input.email,
        vle_shop: input.shop,
        vle_loc: input.location,
        vle_state: input.stateCode,
        vle_pin: input.pin,
        vle_uid: uid,
        vle_pan: input.pan,
      })
      ctx.noteContact(reply)
      await ctx.recordWrite(
        () => session.ledger.append('pan.agent.answer', { vleId: input.vleId, source: 'add_vle', outcome: reply.outcome, vleStatus: reply.vleStatus, message: reply.message }),
        AGENT_ASKED,
      )
      await refreshBalanceQuietly(session)
      return (await session.ledger.read('getAgent', input.vleId))!
    },

    async 'pan.agents.refresh'({ vleId }) {
      const session = ctx.session()
      const targets = vleId ? [await agentOrThrow(session, vleId)] : (await session.ledger.read('agents')).filter((a) => a.status === 'PENDING' || a.status === 'SUBMITTING')
      const api = await session.panApi()
      for (const agent of targets) {
        const reply = await api.vleStatus(agent.vleId)
        ctx.noteContact(reply)
        await ctx.recordWrite(() =>
          session.ledger.append('pan.agent.answer', { vleId: agent.vleId, source: 'vle_status', outcome: reply.outcome, vleStatus: reply.vleStatus, message: reply.message }),
        )
      }
      await refreshBalanceQuietly(session)
      return { agents: await Promise.all(targets.map(async (a) => (await session.ledger.read('getAgent', a.vleId))!)) }
    },

    async 'pan.coupons.quote'(input) {
      const session = ctx.session()
      await agentOrThrow(session, input.vleId)
      return quote(session, input)
    },

    async 'pan.coupons.sell'(input) {
      const session = ctx.session()
      const agent = await agentOrThrow(session, input.vleId)
      const api = await session.panApi()
      const now = ctx.now()
      // The quote's reads, then one request to the ledger: the agent's open order, the attempt id's seq, the line and the sale.
      const sending = await ctx.recordWrite(async () => {
        const expected = await quote(session, input)
        if (expected.enough === false) {
          const short = say('coupon.balanceShort', { balance: formatPaise(expected.balance.balancePaise!), amount: formatPaise(expected.amountPaise) })
          throw new CounterError('invalid_input', short, { qty: say('coupon.balanceShortField') })
        }
        // Defaulted, the collected amount follows what the provider actually charges (the ledger keeps that).
        const collected = input.collected === undefined || input.collected === null ? undefined : collectedPaise(input.collected, expected.amountPaise, ctx.settings.current)
        const { day, id } = intentStamp('coupon', session.mode === 'training', now, ctx.settings.current.timezone)
        const { type, qty, paymentMode } = input
        const margin = couponMarginOf(ctx.settings, type, qty)
        const intent = { vleId: agent.vleId, vleName: agent.name, type, qty, expectedRatePaise: expected.ratePaise, ...day, collectedPaise: collected, paymentMode, margin }
        const written = await session.ledger.write('couponIntent', intent, id)
        if ('sale' in written) return written.sale
        return refuseWhileUnresolved(ctx, { kind: 'coupon', id: written.id }, say('agent.whom', { vleId: agent.vleId }), 'vleId')
      }, NOTHING_SENT)
      announceCoupon(session, ctx.answers.reads(session).shownCoupon(sending))
      const reply = await api.couponRequest(input)
      ctx.noteContact(reply)
      // A FAILED answer is checked too: one that took money from the balance must say so. The balance
      // expected is taken as the answer arrives, from the facts journaled before it, as the day close takes it.
      const problems = reply.outcome !== 'UNKNOWN' ? checkCouponAnswer(reply, input.qty, await expectedPanBalance(session.ledger)) : []
      const sale = await recordCouponAnswer(session, sending, 'coupon_req', reply, problems)
      await refreshBalanceQuietly(session)
      return sale
    },

    async 'pan.coupons.checkStatus'({ attemptId }) {
      const session = ctx.session()
      const sale = await ctx.answers.reads(session).couponSale(attemptId)
      if (!sale) throw new CounterError('not_found', say('coupon.noSuchSale', { attemptId }))
      if (!sale.orderId) {
        throw new CounterError('not_found', say('coupon.noOrder'))
      }
      const reply = await (await session.panApi()).couponStatus(sale.orderId, ctx.now().getTime() - Date.parse(sale.createdAt))
      ctx.noteContact(reply)
      // A refused check is about our request, not the order: shown, but no news of the sale to journal (the queue's pending.checked keeps it).
      if (reply.requestRefused) return { ...sale, message: reply.message }
      // History is not a chain link: only the answer's own arithmetic is checked here.
      const problems = reply.httpStatus !== null ? checkCouponAnswer(reply, sale.qty, null) : []
      const updated = await recordCouponAnswer(session, sale, 'coupon_status', reply, problems)
      await refreshBalanceQuietly(session)
      return updated
    },

    async 'pan.coupons.list'() {
      return { sales: await ctx.answers.reads(ctx.session()).couponSales() }
    },

    async 'pan.resets.request'({ vleId }) {
      const session = ctx.session()
      await agentOrThrow(session, vleId)
      const api = await session.panApi()
      const attemptId = await ctx.recordWrite(async () => {
        const now = ctx.now()
        const line = { type: 'pan.reset.intent', data: { vleId, businessDay: ctx.businessDay(now) } } as const
        return session.ledger.write('numberedLine', line, idToNumber('reset', session.mode === 'training', now, ctx.settings.current.timezone))
      }, NOTHING_SENT)
      const reply = await api.passwordReset(vleId)
      return recordResetAnswer(session, attemptId, 'pass_reset', reply)
    },

    async 'pan.resets.check'({ attemptId }) {
      const session = ctx.session()
      const reset = await resetOrThrow(session, attemptId)
      if (!reset.orderId) throw new CounterError('not_found', say('reset.noOrder'))
      const reply = await (await session.panApi()).passwordResetStatus(reset.orderId)
      return recordResetAnswer(session, attemptId, 'pass_status', reply)
    },

    async 'pan.resets.list'({ vleId }) {
      return { resets: await ctx.session().ledger.read('passwordResets', vleId) }
    },

    async 'pan.balance.refresh'() {
      return readBalance(ctx.session())
    },
  }
}
