import { percent } from './scale.ts';

export interface Share {
  readonly label: string;
  readonly count: number;
  /** 0 to 1. */
  readonly share: number;
}

/**
 * Counts with their share drawn as a bar beside them: a table first (the numbers are the
 * content), each share's bar an SVG a reader may ignore.
 */
export function ShareBars({
  caption,
  shares,
  empty,
}: {
  readonly caption: string;
  readonly shares: readonly Share[];
  readonly empty: string;
}) {
  if (shares.length === 0) return <p>{empty}</p>;
  return (
    <table className="shares">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Code</th>
          <th scope="col">Count</th>
          <th scope="col">Rate</th>
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => (
          <tr key={share.label}>
            <th scope="row">
              <code>{share.label}</code>
            </th>
            <td>{share.count}</td>
            <td>
              <svg viewBox="0 0 100 10" className="share" aria-hidden="true">
                <rect className="track" x={0} y={0} width={100} height={10} />
                <rect
                  className="series-bad"
                  x={0}
                  y={0}
                  width={Math.max(share.share * 100, 1)}
                  height={10}
                />
              </svg>{' '}
              {percent(share.share)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
