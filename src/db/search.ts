import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The dialect-specific half of ticket search: a condition on the `tickets` table that is true when
 * the term occurs (case-insensitively) in the subject, the description, or the customer's name or
 * email. The repository adds the ticket-number match, which is the same everywhere.
 */
export interface TicketSearch {
  textMatch(term: string): Expression<SqlBool>;
}

const escapeLike = (term: string): string => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** SQLite: FTS5 trigram index for terms of three characters or more. */
export const sqliteTicketSearch: TicketSearch = {
  textMatch(term) {
    if ([...term].length >= 3) {
      // A quoted FTS5 string of trigrams matches exactly where the term is a substring.
      const phrase = `"${term.replace(/"/g, '""')}"`;
      return sql<SqlBool>`tickets.seq in (select rowid from ticket_search where ticket_search match ${phrase})`;
    }
    // A trigram index cannot answer one- or two-character terms; such short terms match so many
    // tickets that walking the organization's tickets newest-first fills a page quickly.
    const pattern = `%${escapeLike(term)}%`;
    return sql<SqlBool>`(tickets.subject like ${pattern} escape '\\' or tickets.description like ${pattern} escape '\\'
      or exists (select 1 from customers c where c.id = tickets.customer_id
        and (c.name like ${pattern} escape '\\' or c.email like ${pattern} escape '\\')))`;
  },
};
