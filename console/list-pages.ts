import type { DeskConversation } from './types.ts';

/** The rows the console lists and where the next page starts (null: all are here). */
export interface ListPages {
  rows: DeskConversation[];
  /** How many rows the first page gave (the rest came from scrolling on). */
  firstCount: number;
  next: string | null;
}

/**
 * The list after the first page is read again (something changed): the new first page, then the
 * rows scrolled in before that it does not hold, so that a person scrolled down keeps their place.
 */
export function withFirstPage(pages: ListPages, fresh: DeskConversation[], next: string | null): ListPages {
  if (pages.rows.length <= pages.firstCount) return { rows: fresh, firstCount: fresh.length, next };
  const ids = new Set(fresh.map((row) => row.id));
  const later = pages.rows.slice(pages.firstCount).filter((row) => !ids.has(row.id));
  return { rows: [...fresh, ...later], firstCount: fresh.length, next: pages.next };
}

/** The list with the next page added after it (a row already listed is not listed twice). */
export function withNextPage(pages: ListPages, more: DeskConversation[], next: string | null): ListPages {
  const ids = new Set(pages.rows.map((row) => row.id));
  return { rows: [...pages.rows, ...more.filter((row) => !ids.has(row.id))], firstCount: pages.firstCount, next };
}
