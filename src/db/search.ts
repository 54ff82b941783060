import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The dialect-specific half of ticket search: a case-insensitive substring match over the subject,
 * the description, and the customer's name and email. The repository adds the ticket-number match
 * and the organization, which are the same everywhere.
 */
export interface TicketSearch {
  /**
   * A statement selecting `seq` of every ticket (of all organizations) whose text contains the
   * term, answered from the search index; undefined when the index cannot answer this term, and
   * then `textMatch` is used instead.
   */
  indexedMatches(term: string): RawBuilder<{ seq: number }> | undefined;
  /** A condition on the `tickets` table that is true when the term occurs in the ticket's text. */
  textMatch(term: string): Expression<SqlBool>;
}

const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** SQLite: FTS5 trigram index for terms of three characters or more. */
export const sqliteTicketSearch: TicketSearch = {
  indexedMatches(term) {
    if ([...term].length < 3) return undefined;
    // A quoted FTS5 string of trigrams matches exactly where the term is a substring; inside the
    // quotes every character is literal except the quote itself, which is doubled.
    const phrase = `"${term.replace(/"/g, '""')}"`;
    return sql<{ seq: number }>`select rowid as seq from ticket_search where ticket_search match ${phrase}`;
  },
  textMatch(term) {
    const matches = this.indexedMatches(term);
    if (matches) return sql<SqlBool>`tickets.seq in (${matches})`;
    // A trigram index cannot answer one- or two-character terms; such short terms match so many
    // tickets that walking the organization's tickets newest-first fills a page quickly.
    const pattern = `%${escapeLike(term)}%`;
    return sql<SqlBool>`(tickets.subject like ${pattern} escape '\\' or tickets.description like ${pattern} escape '\\'
      or exists (select 1 from customers c where c.id = tickets.customer_id
        and (c.name like ${pattern} escape '\\' or c.email like ${pattern} escape '\\')))`;
  },
};
