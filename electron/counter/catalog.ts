// The operator and circle lists the counter offers, read from resources/operators.json (the
// provider publishes no codes: the file is the shop's to correct), and matching of lookup answers.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Circle, Operator } from '../contract'

interface CatalogFile {
  operators: (Operator & { aliases?: string[] })[]
  circles: Circle[]
}

export interface Catalog {
  operators: Operator[]
  circles: Circle[]
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
  return {
    operators,
    circles: file.circles,
    operatorByCode: (code) => operators.find((o) => o.code === code),
    matchOperator: (answer) => byAnswer.get(normal(answer)),
    matchCircle: (answer) => circleByAnswer.get(normal(answer)) ?? file.circles.find((c) => normal(c.name).startsWith(normal(answer))),
  }
}
