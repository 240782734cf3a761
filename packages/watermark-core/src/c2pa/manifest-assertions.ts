// Reads the assertions Hallmark writes (and the same standard ones other tools write) out of one
// manifest of c2pa-node's JSON. Labels may carry a version (`c2pa.actions.v2`) or an instance
// suffix (`c2pa.actions__1`); both are ignored when matching.
import { DEVELOPMENT_SIGNER_COMMON_NAME } from './dev-ca.ts';
import { asArray, asRecord, asString, type JsonRecord, stringOrNull } from './json-view.ts';
import {
  ACTIONS_LABEL,
  CREATIVE_WORK_LABEL,
  HALLMARK_ASSERTION_LABEL,
  SOFT_BINDING_LABEL,
} from './manifest-definition.ts';
import type {
  ActionSummary,
  ManifestMetadata,
  SignerSummary,
  SoftBindingSummary,
  ValidationIssue,
} from './manifest-summary.ts';

/** Data of every assertion of `manifest` whose base label is `label`, in manifest order. */
function assertionData(manifest: JsonRecord, label: string): JsonRecord[] {
  return asArray(manifest.assertions).flatMap((entry) => {
    const assertion = asRecord(entry);
    const data = asRecord(assertion?.data);
    const found = asString(assertion?.label);
    return found !== undefined && data !== undefined && baseLabel(found) === label ? [data] : [];
  });
}

function baseLabel(label: string): string {
  return label.replace(/__\d+$/, '').replace(/\.v\d+$/, '');
}

export function actionsOf(manifest: JsonRecord): ActionSummary[] {
  return assertionData(manifest, ACTIONS_LABEL).flatMap((data) =>
    asArray(data.actions).flatMap((entry) => {
      const action = asRecord(entry);
      const name = asString(action?.action);
      if (action === undefined || name === undefined) return [];
      return [
        {
          action: name,
          softwareAgent: softwareAgentOf(action.softwareAgent),
          when: stringOrNull(action.when),
          digitalSourceType: stringOrNull(action.digitalSourceType),
        },
      ];
    }),
  );
}

/** Claim v1 wrote the agent as a string; v2 as `{ name, version }`. */
function softwareAgentOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const agent = asRecord(value);
  const name = asString(agent?.name);
  if (name === undefined) return null;
  const version = asString(agent?.version);
  return version === undefined ? name : `${name} ${version}`;
}

export function claimGeneratorOf(manifest: JsonRecord): string | null {
  const generators = asArray(manifest.claim_generator_info).flatMap((entry) => {
    const agent = softwareAgentOf(entry);
    return agent === null ? [] : [agent];
  });
  return generators.length > 0 ? generators.join(', ') : stringOrNull(manifest.claim_generator);
}

export function metadataOf(manifest: JsonRecord): ManifestMetadata {
  const work = assertionData(manifest, CREATIVE_WORK_LABEL)[0];
  const hallmark = assertionData(manifest, HALLMARK_ASSERTION_LABEL)[0];
  const authors = asArray(work?.author).flatMap((entry) => {
    const name = typeof entry === 'string' ? entry : asString(asRecord(entry)?.name);
    return name === undefined ? [] : [name];
  });
  // Outputs before C2PA 2.2 kept author, copyright and date in a CreativeWork assertion.
  const metadata: Record<keyof ManifestMetadata, string | undefined> = {
    author: asString(hallmark?.author) ?? (authors.length > 0 ? authors.join(', ') : undefined),
    creationDate: asString(hallmark?.creationDate) ?? asString(work?.dateCreated),
    description: asString(hallmark?.description) ?? asString(work?.description),
    copyright: asString(hallmark?.copyright) ?? asString(work?.copyrightNotice),
    licenseType: asString(hallmark?.licenseType) ?? asString(work?.license),
  };
  return Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== undefined));
}

export function identifiersOf(manifest: JsonRecord): {
  fileId: string | null;
  requestId: string | null;
} {
  const hallmark = assertionData(manifest, HALLMARK_ASSERTION_LABEL)[0];
  return { fileId: stringOrNull(hallmark?.fileId), requestId: stringOrNull(hallmark?.requestId) };
}

/** The first soft binding with a decodable value (C2PA stores it base64-encoded). */
export function softBindingOf(manifest: JsonRecord): SoftBindingSummary | null {
  for (const data of assertionData(manifest, SOFT_BINDING_LABEL)) {
    const algorithm = asString(data.alg);
    for (const entry of asArray(data.blocks)) {
      const value = asString(asRecord(entry)?.value);
      if (algorithm !== undefined && value !== undefined && /^[A-Za-z0-9+/]+=*$/.test(value)) {
        return { algorithm, payloadHex: Buffer.from(value, 'base64').toString('hex') };
      }
    }
  }
  return null;
}

/**
 * The signer as the manifest names it, with what the validation said of its trust: c2pa-node
 * names the anchors a trusted signer chains to ("System" for its trust list, "User" for the
 * user's anchors) and reports the time-stamp's trust on its own.
 */
export function signerOf(
  manifest: JsonRecord,
  statuses: readonly ValidationIssue[] = [],
): SignerSummary | null {
  const info = asRecord(manifest.signature_info);
  if (info === undefined) return null;
  const trusted = statuses.find((status) => status.code === 'signingCredential.trusted');
  const trustedBy =
    trusted === undefined
      ? null
      : /\bUser\b/.test(trusted.explanation ?? '')
        ? 'operator_anchors'
        : 'trust_list';
  const codes = new Set(statuses.map((status) => status.code));
  const subject = stringOrNull(info.common_name);
  return {
    subject,
    issuer: stringOrNull(info.issuer),
    algorithm: stringOrNull(info.alg)?.toLowerCase() ?? null,
    serialNumber: stringOrNull(info.cert_serial_number),
    signingTime: stringOrNull(info.time),
    isDevelopmentIdentity: subject === DEVELOPMENT_SIGNER_COMMON_NAME,
    trustedBy,
    timeStamp: codes.has('timeStamp.trusted')
      ? 'trusted'
      : codes.has('timeStamp.untrusted')
        ? 'untrusted'
        : null,
  };
}
