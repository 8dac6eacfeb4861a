import { describe, expect, it } from 'vitest';
import type { DeskConversation } from './types.ts';
import { withFirstPage, withNextPage } from './list-pages.ts';

const rows = (...ids: number[]) => ids.map((id) => ({ id }) as DeskConversation);
const ids = (list: DeskConversation[]) => list.map((row) => row.id);

describe('the list’s pages', () => {
  it('adds the next page after the rows, without repeating one', () => {
    const pages = withNextPage({ rows: rows(1, 2), firstCount: 2, next: 'a' }, rows(2, 3), 'b');
    expect(ids(pages.rows)).toEqual([1, 2, 3]);
    expect(pages.next).toBe('b');
  });

  it('replaces the list when only the first page was read', () => {
    const pages = withFirstPage({ rows: rows(1, 2), firstCount: 2, next: null }, rows(5, 1), 'c');
    expect(pages).toEqual({ rows: rows(5, 1), firstCount: 2, next: 'c' });
  });

  it('keeps the rows scrolled in, and where the next page starts, when the first page is read again', () => {
    const pages = withFirstPage({ rows: rows(1, 2, 3, 4), firstCount: 2, next: 'z' }, rows(3, 1), 'y');
    expect(ids(pages.rows)).toEqual([3, 1, 4]);
    expect(pages.next).toBe('z');
  });
});
