import Link from 'next/link';
import { queryOf } from './format.ts';

/**
 * Cursor paging: "Next" carries the API's cursor with the current filters. "First page" goes
 * back; a cursor marks a position, so pages stay stable while new rows arrive.
 */
export function Pager(props: {
  readonly path: string;
  readonly filters: Readonly<Record<string, string | undefined>>;
  readonly cursor: string | undefined;
  readonly nextCursor: string | null;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      {props.cursor !== undefined && (
        <Link href={`${props.path}${queryOf({ ...props.filters, cursor: undefined })}`}>
          First page
        </Link>
      )}
      {props.nextCursor !== null && (
        <Link href={`${props.path}${queryOf({ ...props.filters, cursor: props.nextCursor })}`}>
          Next page
        </Link>
      )}
    </nav>
  );
}
