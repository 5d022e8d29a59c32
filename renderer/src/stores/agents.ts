// The agents (VLEs) register as the core keeps it: the list, the states to choose from, creating an agent and asking the provider for their status.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { Agent, Input, Output, Result } from '../../../electron/contract'
import { call } from '../api'
import { busyWhile, busyWith } from '../busy'

type State = Output<'pan.states'>['states'][number]

/** What `refreshing` holds while every PENDING agent is asked about: no agent id can be '*'. */
export const ALL_PENDING = '*'

export const useAgentsStore = defineStore('agents', () => {
  const agents = ref<Agent[]>([])
  const states = ref<State[]>([])
  const loadError = ref<string | null>(null)
  const selectedVleId = ref<string | null>(null)
  const creating = ref(false)
  /** The agent being asked about, or ALL_PENDING. */
  const refreshing = ref<string | null>(null)

  const selected = computed(() => agents.value.find((agent) => agent.vleId === selectedVleId.value) ?? null)
  const approved = computed(() => agents.value.filter((agent) => agent.status === 'APPROVED'))

  async function load(): Promise<void> {
    const result = await call('pan.agents.list', {})
    if (result.ok) {
      agents.value = result.value.agents
      loadError.value = null
    } else {
      loadError.value = result.error.message
    }
  }

  async function ensureStatesLoaded(): Promise<void> {
    if (states.value.length > 0) return
    const result = await call('pan.states', {})
    if (result.ok) states.value = result.value.states
    else loadError.value = result.error.message
  }

  function stateName(code: string): string {
    const state = states.value.find((known) => known.code === code)
    return state ? `${state.name} (${state.code})` : code
  }

  function apply(changed: Agent[]): void {
    for (const agent of changed) {
      const index = agents.value.findIndex((listed) => listed.vleId === agent.vleId)
      if (index >= 0) agents.value[index] = agent
      else agents.value = [agent, ...agents.value]
    }
  }

  function select(vleId: string | null): void {
    selectedVleId.value = vleId
  }

  function create(input: Input<'pan.agents.create'>): Promise<Result<Agent>> {
    return busyWhile(creating, async () => {
      const result = await call('pan.agents.create', input)
      if (result.ok) apply([result.value])
      return result
    })
  }

  /** One agent's status, or (without an id) every PENDING agent's. */
  function refresh(vleId?: string): Promise<Result<Output<'pan.agents.refresh'>>> {
    return busyWith(refreshing, vleId ?? ALL_PENDING, async () => {
      const result = await call('pan.agents.refresh', vleId ? { vleId } : {})
      if (result.ok) apply(result.value.agents)
      return result
    })
  }

  return { agents, states, loadError, selectedVleId, selected, approved, creating, refreshing, load, ensureStatesLoaded, stateName, select, create, refresh }
})
