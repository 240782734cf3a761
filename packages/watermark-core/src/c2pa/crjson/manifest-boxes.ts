// From a manifest store's superboxes to its manifests: each one's claim, claim signature and
// assertions, in store order (oldest first, the active manifest last).
import { MalformedManifestStoreError } from './errors.ts';
import { type ContentBox, readSuperbox, type Superbox } from './jumbf-boxes.ts';

/** A store holds the manifests of an asset's history; more than this is not a real history. */
const MAX_MANIFESTS = 1024;
const MAX_ASSERTIONS = 1024;

export type AssertionContent =
  | { readonly kind: 'cbor'; readonly bytes: Uint8Array }
  | { readonly kind: 'json'; readonly bytes: Uint8Array }
  /** An embedded file (a thumbnail) or any other box: referenced, not decoded. */
  | { readonly kind: 'binary'; readonly mediaType: string | null };

export interface StoredAssertion {
  /** With its instance suffix when there are several, e.g. `c2pa.ingredient.v3__1`. */
  readonly label: string;
  readonly content: AssertionContent;
  /** What a hashed URI to this assertion hashes: its superbox without the box header. */
  readonly hashedBytes: Uint8Array;
}

export interface StoredManifest {
  readonly label: string;
  readonly claimVersion: 1 | 2;
  readonly claim: Uint8Array;
  /** The COSE_Sign1 structure of the claim signature. */
  readonly signature: Uint8Array;
  readonly assertions: readonly StoredAssertion[];
}

/** Throws MalformedManifestStoreError unless `store` is a C2PA manifest store. */
export function readManifestBoxes(store: Uint8Array): StoredManifest[] {
  const root = readSuperbox(store);
  if (root.label !== 'c2pa')
    throw new MalformedManifestStoreError('the store is not labelled c2pa');
  const manifests = superboxes(root);
  if (manifests.length > MAX_MANIFESTS) throw new MalformedManifestStoreError('too many manifests');
  return manifests.map(manifestOf);
}

function superboxes(box: Superbox): Superbox[] {
  return box.children.filter((child): child is Superbox => child.kind === 'superbox');
}

function manifestOf(box: Superbox): StoredManifest {
  const label = box.label;
  if (label === null) throw new MalformedManifestStoreError('a manifest has no label');
  const parts = new Map(superboxes(box).map((part) => [part.label, part]));
  const claimV2 = parts.get('c2pa.claim.v2');
  const claimBox = claimV2 ?? parts.get('c2pa.claim');
  const signatureBox = parts.get('c2pa.signature');
  if (claimBox === undefined || signatureBox === undefined) {
    throw new MalformedManifestStoreError(`manifest ${label} lacks its claim or its signature`);
  }
  const assertionBoxes = superboxes(parts.get('c2pa.assertions') ?? emptyStore);
  if (assertionBoxes.length > MAX_ASSERTIONS) {
    throw new MalformedManifestStoreError(`manifest ${label} holds too many assertions`);
  }
  return {
    label,
    claimVersion: claimV2 === undefined ? 1 : 2,
    claim: cborPayload(claimBox, `the claim of ${label}`),
    signature: cborPayload(signatureBox, `the signature of ${label}`),
    assertions: assertionBoxes.map((assertion) => assertionOf(assertion, label)),
  };
}

const emptyStore: Superbox = {
  kind: 'superbox',
  contentType: '',
  label: 'c2pa.assertions',
  body: new Uint8Array(),
  children: [],
};

function contentBoxes(box: Superbox): ContentBox[] {
  return box.children.filter((child): child is ContentBox => child.kind === 'content');
}

function cborPayload(box: Superbox, what: string): Uint8Array {
  const content = contentBoxes(box).find((child) => child.type === 'cbor');
  if (content === undefined) throw new MalformedManifestStoreError(`${what} has no CBOR box`);
  return content.payload;
}

function assertionOf(box: Superbox, manifest: string): StoredAssertion {
  if (box.label === null) {
    throw new MalformedManifestStoreError(`an assertion of ${manifest} has no label`);
  }
  const boxes = contentBoxes(box);
  const cbor = boxes.find((child) => child.type === 'cbor');
  const json = boxes.find((child) => child.type === 'json');
  const content: AssertionContent =
    cbor !== undefined
      ? { kind: 'cbor', bytes: cbor.payload }
      : json !== undefined
        ? { kind: 'json', bytes: json.payload }
        : { kind: 'binary', mediaType: embeddedMediaType(boxes) };
  return { label: box.label, content, hashedBytes: box.body };
}

/** An embedded file's description box `bfdb`: toggles, then its media type, NUL-terminated. */
function embeddedMediaType(boxes: readonly ContentBox[]): string | null {
  const description = boxes.find((child) => child.type === 'bfdb')?.payload;
  if (description === undefined || description.length < 2) return null;
  const end = description.indexOf(0, 1);
  return new TextDecoder().decode(description.subarray(1, end === -1 ? description.length : end));
}
