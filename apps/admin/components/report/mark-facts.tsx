import type { PublicVerificationReport } from '@hallmark/sdk';

/** The invisible mark: what it carries, how cleanly, and what the copy did to the picture. */
export function MarkFacts(props: { readonly report: PublicVerificationReport }) {
  const { invisible } = props.report;
  if (!invisible.found) return <p data-testid="mark">No invisible mark was found.</p>;
  const geometry = invisible.geometry;
  return (
    <dl className="facts" data-testid="mark">
      <dt>Payload</dt>
      <dd>
        <code>{invisible.payload}</code>
      </dd>
      <dt>Confidence</dt>
      <dd>{Math.round(invisible.confidence * 100)} %</dd>
      {geometry !== null && (
        <>
          <dt>Turned</dt>
          <dd>
            {geometry.rotation === 0 ? 'not rotated' : `rotated ${geometry.rotation}°`}
            {geometry.mirrored ? ', mirrored' : ''}
          </dd>
          <dt>Size</dt>
          <dd>
            {geometry.scale === null
              ? 'unknown'
              : `${Math.round(geometry.scale * 100)} % of the issued picture`}
          </dd>
          <dt>Offset</dt>
          <dd>
            {geometry.cropOffset === null
              ? 'unknown'
              : `${Math.round(geometry.cropOffset.x)} × ${Math.round(geometry.cropOffset.y)} pixels into the issued picture, within one tile of the mark`}
          </dd>
        </>
      )}
    </dl>
  );
}
