import type { ManifestIngredient, PublicVerificationReport } from '@hallmark/sdk';
import type { ReactNode } from 'react';

interface HistoryNode {
  /** Its place in the report's history: two steps may share a title and have no manifest. */
  readonly step: number;
  readonly ingredient: ManifestIngredient;
  readonly children: HistoryNode[];
}

/** The flat, depth-numbered history (newest first, each step before its own ingredients) as a tree. */
function treeOf(ingredients: readonly ManifestIngredient[]): HistoryNode[] {
  const roots: HistoryNode[] = [];
  const path: HistoryNode[] = [];
  for (const [step, ingredient] of ingredients.entries()) {
    const node: HistoryNode = { step, ingredient, children: [] };
    path.length = Math.min(path.length, ingredient.depth - 1);
    (path.at(-1)?.children ?? roots).push(node);
    path.push(node);
  }
  return roots;
}

const STATE_WORDS: Record<NonNullable<ManifestIngredient['state']>, string> = {
  trusted: 'signed, trusted',
  valid_untrusted: 'signed, signer not trusted here',
  invalid: 'credentials broken',
};

/** Side of a step's picture, in CSS pixels: set on the element so nothing moves as it loads. */
const PICTURE_SIDE = 48;

/**
 * The picture the credentials keep of a step (a `data:` URL the service checked: a small JPEG,
 * PNG or WebP), or an empty frame of the same size so the steps stay aligned.
 */
function StepPicture(props: { readonly ingredient: ManifestIngredient }) {
  const { thumbnail, title } = props.ingredient;
  if (thumbnail === null || thumbnail === undefined) {
    return <span className="thumbnail" aria-hidden="true" />;
  }
  return (
    // A data: URL, not a route of this app: next/image would only get in its way.
    // biome-ignore lint/performance/noImgElement: the picture is inline data, never fetched.
    <img
      className="thumbnail"
      data-testid="history-thumbnail"
      src={thumbnail}
      alt={`Thumbnail the credentials keep of ${title ?? 'this earlier version'}`}
      width={PICTURE_SIDE}
      height={PICTURE_SIDE}
      decoding="async"
    />
  );
}

function branch(nodes: readonly HistoryNode[]): ReactNode {
  return (
    <ul>
      {nodes.map((node) => (
        <li key={node.step}>
          <span className="history-step" data-testid="history-step">
            <StepPicture ingredient={node.ingredient} />
            <span>
              <strong>{node.ingredient.title ?? 'Untitled'}</strong>{' '}
              <span className="muted">
                (
                {node.ingredient.relationship === 'parentOf'
                  ? 'made from'
                  : node.ingredient.relationship}
                {node.ingredient.state === null
                  ? ', no credentials'
                  : `, ${STATE_WORDS[node.ingredient.state]}`}
                )
              </span>
            </span>
          </span>
          {node.children.length > 0 && branch(node.children)}
        </li>
      ))}
    </ul>
  );
}

/** What was done to the picture, and what it was made from, as its credentials record it. */
export function HistoryTree(props: { readonly report: PublicVerificationReport }) {
  const { c2pa } = props.report;
  if (!c2pa.present) return <p>No Content Credentials: the file records no history.</p>;
  return (
    <div className="history" data-testid="history">
      <p>
        <strong>This picture</strong>
        {c2pa.actions.length > 0 && (
          <>
            {': '}
            {c2pa.actions.map((action) => action.action.replace(/^c2pa\./, '')).join(', ')}
          </>
        )}
      </p>
      {c2pa.ingredients.length === 0 ? (
        <p className="muted">No earlier version is recorded.</p>
      ) : (
        branch(treeOf(c2pa.ingredients))
      )}
    </div>
  );
}
