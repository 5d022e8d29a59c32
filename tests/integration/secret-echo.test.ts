// A provider that echoes our secrets back in another form (spaced out, re-cased, cut short, re-encoded), through the
// whole core over real HTTP: none of it reaches the journal, the data folder, the logs or anything the screen is sent.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CounterEvent, Sale } from '../../electron/contract'
import { agentInput, journalOf, realApiKey, realCredentials, startRealModeRig, valueOf, type RealModeRig } from './helpers'

const keyBytes = Buffer.from(realCredentials.secretKey, 'hex')

/** What the recharge provider echoes, one sale each. */
const RECHARGE_ECHOES: Record<string, string> = {
  'the token spaced out': [...realCredentials.token].join(' '),
  'the token in upper case': realCredentials.token.toUpperCase(),
  "the token's first 16 characters": realCredentials.token.slice(0, 16),
  'the secret key in base64': keyBytes.toString('base64'),
  'the secret key in url-safe base64, unpadded': keyBytes.toString('base64url'),
  'the secret key in dashed groups of four': realCredentials.secretKey.match(/.{4}/g)!.join('-'),
}
const PAN_ECHO = realApiKey.replaceAll('-', '')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]))
}

let rig: RealModeRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('a provider echoing our secrets in another form', () => {
  it('none of them is journaled, logged or shown', async () => {
    rig = await startRealModeRig()
    const shown: unknown[] = []
    rig.counter.onEvent((event: CounterEvent) => shown.push(event))

    const sold: Sale[] = []
    for (const echo of Object.values(RECHARGE_ECHOES)) {
      rig.provider.setFault({ kind: 'misanswer', times: 1, fields: { message: `Recharge done for ${echo} today` } })
      const sale = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9876543210', operatorCode: 'AT', amount: '199' }))
      expect(sale.state).toBe('SUCCESS')
      shown.push(sale, await rig.counter.call('receipt.html', { orderId: sale.orderId }))
      sold.push(sale)
    }
    // The refusal path words the provider's message into our own sentence: the echo is blanked there too.
    rig.provider.setFault({ kind: 'refuse', times: 1, refusal: { message: `Invalid token ${RECHARGE_ECHOES['the token spaced out']}` } })
    const refused = valueOf(await rig.counter.call('recharge.sell', { kind: 'mobile', number: '9876543211', operatorCode: 'AT', amount: '199' }))
    expect(refused.state).toBe('FAILED')
    shown.push(refused)

    rig.provider.setFault({ kind: 'misanswer', operations: ['add_vle'], times: 1, fields: { message: `VLE created for key ${PAN_ECHO}` } })
    const agent = valueOf(await rig.counter.call('pan.agents.create', agentInput()))
    shown.push(agent, await rig.counter.call('pan.agents.list', {}))
    shown.push(await rig.counter.call('sales.today', {}), await rig.counter.call('history.search', {}))

    const journal = journalOf(rig)
    await rig.counter.close()
    const seen = [JSON.stringify(shown), rig.logLines.join('\n'), ...filesUnder(rig.dataDir).map((file) => readFileSync(file, 'latin1'))].join('\n').toLowerCase()
    const echoes: Record<string, string> = { ...RECHARGE_ECHOES, 'the api_key without dashes': PAN_ECHO }
    expect(Object.keys(echoes).filter((form) => seen.includes(echoes[form].toLowerCase()))).toEqual([])

    // Each answer was kept, its echo blanked in place (base64's padding, which says nothing, left after it): the
    // sales' messages, the refusal worded around the provider's own, the agent's answer.
    for (const sale of sold) expect(sale.message).toMatch(/^Recharge done for \[hidden\]=* today$/)
    expect(refused.message).toMatch(/^The provider refused the sale \(Invalid token \[hidden\]\): /)
    const outcomes = journal.filter((line) => line.type === 'recharge.outcome').map((line) => line.data.message)
    expect(outcomes).toEqual([...sold.map((sale) => sale.message), refused.message])
    expect(journal.find((line) => line.type === 'pan.agent.answer')?.data.message).toBe('VLE created for key [hidden]')
  })
})
