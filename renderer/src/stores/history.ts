// Every sale ever made, as the history screen pages through it: the filters, pages loaded on demand
// as the list scrolls (any page, so a jump to the end does not load everything before it), and export.
import { defineStore } from 'pinia'
import { reactive, ref, shallowRef, triggerRef } from 'vue'
import type { HistoryRow, Input, Result, SaleState } from '../../../electron/contract'
import { call } from '../api'
import { busyWhile } from '../busy'
import { downloadText } from '../download'
import type { FieldErrors } from '../forms'

export const HISTORY_PAGE_ROWS = 100

export interface HistoryFilters {
  text: string
  from: string
  to: string
  state: SaleState | ''
  kind: 'recharge' | 'coupon' | ''
}

export const useHistoryStore = defineStore('history', () => {
  const filters = reactive<HistoryFilters>({ text: '', from: '', to: '', state: '', kind: '' })
  /** Rows by page number; a page is asked for once, when the list first needs one of its rows. */
  const pages = shallowRef(new Map<number, HistoryRow[]>())
  const total = ref(0)
  const archives = ref<string[]>([])
  /** True once the first page of the current search has arrived. */
  const searched = ref(false)
  const error = ref<string | null>(null)
  const fieldErrors = ref<FieldErrors>({})
  const exporting = ref(false)
  const requested = new Set<number>()
  let search = 0

  /** The filters as the core takes them: an empty box is no filter. */
  function query(): Omit<Input<'history.search'>, 'offset' | 'limit'> {
    return {
      text: filters.text.trim() || undefined,
      from: filters.from || undefined,
      to: filters.to || undefined,
      state: filters.state || undefined,
      kind: filters.kind || undefined,
    }
  }

  async function loadPage(page: number, forSearch: number): Promise<void> {
    requested.add(page)
    const result = await call('history.search', { ...query(), offset: page * HISTORY_PAGE_ROWS, limit: HISTORY_PAGE_ROWS })
    if (forSearch !== search) return // the filters changed meanwhile
    if (!result.ok) {
      requested.delete(page)
      error.value = result.error.message
      fieldErrors.value = result.error.fields ?? {}
      return
    }
    error.value = null
    fieldErrors.value = {}
    total.value = result.value.total
    archives.value = result.value.archives
    pages.value.set(page, result.value.rows)
    triggerRef(pages)
    searched.value = true
  }

  /** A new search with the filters as they are now: from the first page. */
  function run(): Promise<void> {
    search++
    requested.clear()
    pages.value = new Map()
    return loadPage(0, search)
  }

  /** Loads the pages holding rows first..last that are not loaded or on their way. */
  function need(first: number, last: number): void {
    if (total.value === 0) return // the search's first page is on its way, or nothing matched
    const lastPage = Math.floor(Math.max(0, Math.min(last, total.value - 1)) / HISTORY_PAGE_ROWS)
    for (let page = Math.floor(Math.max(0, first) / HISTORY_PAGE_ROWS); page <= lastPage; page++) {
      if (!requested.has(page)) void loadPage(page, search)
    }
  }

  function rowAt(index: number): HistoryRow | undefined {
    return pages.value.get(Math.floor(index / HISTORY_PAGE_ROWS))?.[index % HISTORY_PAGE_ROWS]
  }

  /** A customer named, renamed or forgotten (customer.changed): the loaded rows of its number show it. */
  function nameCustomer(number: string, name: string | null): void {
    // New row objects: a line shown keeps its row as a prop, and re-renders only for another one.
    for (const [page, rows] of pages.value) {
      pages.value.set(page, rows.map((row) => (row.kind === 'recharge' && row.label === number ? { ...row, customerName: name } : row)))
    }
    triggerRef(pages)
  }

  function exportCsv(): Promise<Result<{ filename: string }>> {
    return busyWhile(exporting, async () => {
      const result = await call('history.exportCsv', query())
      if (!result.ok) return result
      downloadText(result.value.content, result.value.filename)
      return { ok: true, value: { filename: result.value.filename } }
    })
  }

  return { filters, pages, total, archives, searched, error, fieldErrors, exporting, run, need, rowAt, nameCustomer, exportCsv }
})
