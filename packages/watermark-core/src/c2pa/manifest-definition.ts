// The manifest Hallmark signs, as the JSON definition c2pa-node's Builder takes. Pure: the same
// request and parent give the same definition, so what goes into a manifest is testable without
// signing anything.
import { randomUUID } from 'node:crypto';
import { INVISIBLE_MARK_ALGORITHM, INVISIBLE_MARK_PARAMETERS } from '../code/payload.ts';
import { FINGERPRINT_ALGORITHM } from '../fingerprint/algorithm.ts';
import { type C2paFormat, mimeTypeOf } from './formats.ts';
import type { ValidManifestRequest } from './manifest-request.ts';
import { SOFTWARE_AGENT } from './software-agent.ts';

/**
 * Where outputs before C2PA 2.2 kept author, copyright and creation date: read, never written
 * (2.2 deprecates every `stds.` assertion, and its metadata assertion allows none of the three).
 */
export const CREATIVE_WORK_LABEL = 'stds.schema-org.CreativeWork';
/** The C2PA specification the manifests are written to (claim_generator_info.specVersion). */
export const C2PA_SPEC_VERSION = '2.4';
/** Hallmark's own assertion: the client's metadata and the service's identifiers. */
export const HALLMARK_ASSERTION_LABEL = 'io.hallmark.provenance';
export const SOFT_BINDING_LABEL = 'c2pa.soft-binding';
export const ACTIONS_LABEL = 'c2pa.actions';
/**
 * C2PA's digital source type for "not specified". `c2pa.created` must name one, and a signing
 * service cannot know whether an uploaded photo was captured, drawn or generated.
 */
export const UNSPECIFIED_DIGITAL_SOURCE_TYPE = 'http://c2pa.org/digitalsourcetype/empty';
/** Key in an ingredient's metadata recording a parent manifest that could not even be parsed. */
export const UNREADABLE_PARENT_METADATA_KEY = 'io.hallmark.validation';
/** Failure code recorded for a parent manifest c2pa-node could not parse. */
export const MANIFEST_UNREADABLE_CODE = 'hallmark.manifestUnreadable';

/** What the input carried before signing; decides `c2pa.created` versus `c2pa.opened`. */
export type ParentProvenance =
  | { readonly kind: 'none' }
  | { readonly kind: 'manifest' }
  | { readonly kind: 'unreadable'; readonly reason: string };

export interface ManifestAssertionDefinition {
  readonly label: string;
  readonly data: Record<string, unknown>;
  readonly kind?: 'Json';
}

export interface ManifestDefinition {
  readonly claim_generator_info: readonly {
    name: string;
    version: string;
    specVersion: string;
  }[];
  readonly title?: string;
  readonly format: string;
  readonly assertions: readonly ManifestAssertionDefinition[];
}

/** The parent ingredient's JSON; c2pa-node fills in its manifest and validation from the asset. */
export interface ParentIngredientDefinition {
  readonly instance_id: string;
  readonly relationship: 'parentOf';
  readonly format: string;
  readonly title?: string;
  readonly description?: string;
  readonly metadata?: Record<string, unknown>;
}

export interface ManifestPlan {
  readonly definition: ManifestDefinition;
  /** Absent when the input had no provenance: the asset is then declared created, not opened. */
  readonly parent: ParentIngredientDefinition | undefined;
}

export function planManifest(
  request: ValidManifestRequest,
  format: C2paFormat,
  parentProvenance: ParentProvenance,
  now: Date = new Date(),
): ManifestPlan {
  const mimeType = mimeTypeOf(format);
  const parent =
    parentProvenance.kind === 'none'
      ? undefined
      : parentIngredient(request, mimeType, parentProvenance);
  const assertions = [
    actionsAssertion(request, parent, now),
    hallmarkAssertion(request),
    softBindingAssertion(request),
  ].filter((assertion) => assertion !== undefined);
  return {
    definition: {
      claim_generator_info: [{ ...SOFTWARE_AGENT, specVersion: C2PA_SPEC_VERSION }],
      ...(request.title === undefined ? {} : { title: request.title }),
      format: mimeType,
      assertions,
    },
    parent,
  };
}

function parentIngredient(
  request: ValidManifestRequest,
  mimeType: string,
  provenance: Exclude<ParentProvenance, { kind: 'none' }>,
): ParentIngredientDefinition {
  const parentTitle = request.parentTitle ?? request.title;
  const base = {
    instance_id: `xmp:iid:${randomUUID()}`,
    relationship: 'parentOf' as const,
    format: mimeType,
    ...(parentTitle === undefined ? {} : { title: parentTitle }),
  };
  if (provenance.kind === 'manifest') return base;
  // c2pa-node cannot build an ingredient from an asset whose manifest does not parse, and the
  // ingredient format has no validation field without a manifest to point at: the failure is
  // recorded in the ingredient's metadata instead, so it is never silently dropped.
  return {
    ...base,
    description: 'The parent carried a C2PA manifest that could not be parsed.',
    metadata: {
      [UNREADABLE_PARENT_METADATA_KEY]: {
        state: 'invalid',
        failures: [{ code: MANIFEST_UNREADABLE_CODE, explanation: provenance.reason }],
      },
    },
  };
}

function actionsAssertion(
  request: ValidManifestRequest,
  parent: ParentIngredientDefinition | undefined,
  now: Date,
): ManifestAssertionDefinition {
  const when = now.toISOString();
  const softwareAgent = { ...SOFTWARE_AGENT };
  const first =
    parent === undefined
      ? {
          action: 'c2pa.created',
          when,
          softwareAgent,
          digitalSourceType: request.digitalSourceType ?? UNSPECIFIED_DIGITAL_SOURCE_TYPE,
        }
      : {
          action: 'c2pa.opened',
          when,
          softwareAgent,
          // c2pa-node resolves the instance id into a hashed link to the ingredient assertion.
          parameters: { ingredientIds: [parent.instance_id] },
        };
  const actions: Record<string, unknown>[] = [first];
  if (request.softBinding !== undefined) {
    // `.bound`: the mark's payload is this manifest's soft binding, so the mark leads back here.
    actions.push({ action: 'c2pa.watermarked.bound', when, softwareAgent });
  }
  // Hallmark records every action it takes on the asset, so a reader may rely on the list.
  return { label: ACTIONS_LABEL, data: { actions, allActionsIncluded: true } };
}

function hallmarkAssertion(request: ValidManifestRequest): ManifestAssertionDefinition | undefined {
  const data = definedEntries({
    author: request.data?.author,
    copyright: request.data?.copyright,
    creationDate: request.data?.creationDate,
    description: request.data?.description,
    licenseType: request.data?.licenseType,
    fileId: request.fileId,
    requestId: request.requestId,
    ...(request.fingerprint === undefined
      ? {}
      : { fingerprint: request.fingerprint, fingerprintAlgorithm: FINGERPRINT_ALGORITHM }),
  });
  return Object.keys(data).length === 0 ? undefined : { label: HALLMARK_ASSERTION_LABEL, data };
}

function softBindingAssertion(
  request: ValidManifestRequest,
): ManifestAssertionDefinition | undefined {
  if (request.softBinding === undefined) return undefined;
  const { algorithm, payloadHex } = request.softBinding;
  return {
    label: SOFT_BINDING_LABEL,
    data: {
      alg: algorithm,
      ...(algorithm === INVISIBLE_MARK_ALGORITHM
        ? { 'alg-params': INVISIBLE_MARK_PARAMETERS }
        : {}),
      // The whole asset: an empty scope means the binding is not limited to a region or time.
      blocks: [{ scope: {}, value: Buffer.from(payloadHex, 'hex').toString('base64') }],
    },
  };
}

function definedEntries(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
