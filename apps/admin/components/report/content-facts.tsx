import type { PublicVerificationReport } from '@hallmark/sdk';
import { RegionsPicture } from './regions-picture.tsx';

const STATE_WORDS = {
  same: 'It shows the issued picture (however cropped, resized or re-encoded).',
  edited: 'It is the issued picture, changed in the regions outlined.',
  differs: 'It shows another picture than the one the mark was issued in.',
  not_compared: 'Not compared: no picture issued here to compare it with.',
} as const;

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)} %`);

/** What the content comparison found, with the changed regions drawn on the picture when it is at hand. */
export function ContentFacts(props: {
  readonly report: PublicVerificationReport;
  readonly picture?: string | undefined;
}) {
  const { content } = props.report;
  return (
    <div data-testid="content" data-state={content.state}>
      <p>{STATE_WORDS[content.state]}</p>
      {content.state !== 'not_compared' && (
        <dl className="facts">
          <dt>Shows</dt>
          <dd>{percent(content.coverage)} of the issued picture</dd>
          <dt>Matches</dt>
          <dd>{percent(content.similarity)} of what it shows</dd>
          <dt>Changed regions</dt>
          <dd data-testid="region-count">{content.regions.length}</dd>
        </dl>
      )}
      {content.regions.length > 0 && (
        <ul className="regions">
          {content.regions.map((r) => (
            <li key={`${r.x},${r.y},${r.width},${r.height}`}>
              {r.width} × {r.height} pixels at ({r.x}, {r.y})
            </li>
          ))}
        </ul>
      )}
      {props.picture !== undefined && (
        <RegionsPicture src={props.picture} regions={content.regions} />
      )}
    </div>
  );
}
