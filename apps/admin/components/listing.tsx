import type { ReactNode } from 'react';
import { ErrorMessage } from './error-message.tsx';
import type { Loaded } from './load.ts';
import { Pager } from './pager.tsx';

/**
 * A page of a list as every console list shows it: the API's refusal, or a table of the items
 * (one `row` each), a line when there are none, and the cursor pager with the page's filters.
 */
export function Listing<Item>(props: {
  readonly page: Loaded<{ readonly items: readonly Item[]; readonly nextCursor: string | null }>;
  readonly headers: readonly string[];
  readonly row: (item: Item) => ReactNode;
  readonly empty: string;
  readonly path: string;
  readonly cursor: string | undefined;
  readonly filters?: Readonly<Record<string, string | undefined>>;
}) {
  const { page } = props;
  if ('problem' in page) {
    return <ErrorMessage>{page.problem}</ErrorMessage>;
  }
  return (
    <>
      <table>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th key={header}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>{page.data.items.map(props.row)}</tbody>
      </table>
      {page.data.items.length === 0 && <p>{props.empty}</p>}
      <Pager
        path={props.path}
        filters={props.filters ?? {}}
        cursor={props.cursor}
        nextCursor={page.data.nextCursor}
      />
    </>
  );
}
