// The lists the counter offers, read from resources/: operators and circles (operators.json) with
// matching of lookup answers, and agent states (states.json). The provider publishes neither the
// operator codes nor the state numbering: both files are the shop's to correct.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Circle, Operator } from '../contract'

export interface State {
  code: string
  name: string
}

interface CatalogFile {
  operators: (Operator & { aliases?: string[] })[]
  circles: Circle[]
}

export interface Catalog {
  operators: Operator[]
  circles: Circle[]
  states: State[]
  operatorByCode(code: string): Operator | undefined
  /** The operator fetch_operator named (by code, name or alias), if we know it. */
  matchOperator(answer: string): Operator | undefined
  /** The circle fetch_operator named (by code or name), if we know it. */
  matchCircle(answer: string): Circle | undefined
}

const normal = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ')

export function loadCatalog(resourcesDir: string): Catalog {
  const file = JSON.parse(readFileSync(join(resourcesDir, 'operators.json'), 'utf8')) as CatalogFile
  const operators = file.operators.map(({ code, name, kind }) => ({ code, name, kind }))
  const byAnswer = new Map<string, Operator>()
  file.operators.forEach((entry, i) => {
    for (const key of [entry.code, entry.name, ...(entry.aliases ?? [])]) byAnswer.set(normal(key), operators[i])
  })
  const circleByAnswer = new Map<string, Circle>()
  for (const circle of file.circles) {
    circleByAnswer.set(normal(circle.code), circle)
    circleByAnswer.set(normal(circle.name), circle)
  }
  const { states } = JSON.parse(readFileSync(join(resourcesDir, 'states.json'), 'utf8')) as { states: State[] }
  return {
    operators,
    circles: file.circles,
    states,
    operatorByCode: (code) => operators.find((o) => o.code === code),
    matchOperator: (answer) => byAnswer.get(normal(answer)),
    matchCircle: (answer) => circleByAnswer.get(normal(answer)) ?? file.circles.find((c) => normal(c.name).startsWith(normal(answer))),
  }
}
