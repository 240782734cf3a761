import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  findIssuedByManifest,
  findIssuedByPayload,
  type IssuedRecord,
  type Sql,
} from '@hallmark/db';
import type { ContentFinding } from '@hallmark/schemas';
import { CONTENT_NOT_COMPARED, type ContentComparer, compareWithIssued } from './content.ts';
import {
  type ExamineOptions,
  examineImage,
  examineMediaFile,
  type Findings,
  relateGeometry,
} from './findings.ts';
import { type Decision, decideVerdict, fingerprintDistanceOf } from './verdict.ts';

/** Everything a verification finds, as stored with it; the per-caller view is built from it. */
export interface VerificationOutcome {
  readonly findings: Findings;
  readonly decision: Decision;
  /** The watermark job that issued the mark found, if this deployment did. */
  readonly issued: IssuedRecord | null;
  /** Bits the file's fingerprint differs from the issuing job's; null without both. */
  readonly fingerprintDistance: number | null;
  /** The copy compared with the picture its mark was issued in. */
  readonly content: ContentFinding;
  /** Which bytes were examined: what a signed report binds its verdict to. */
  readonly checkedFile: CheckedFile;
}

/** The file a verification examined, named by its digest. */
export interface CheckedFile {
  /** SHA-256 of the bytes, 64 lowercase hex digits. */
  readonly sha256: string;
  readonly size: number;
}

export interface VerifyOptions extends ExamineOptions {
  /** Where the content comparison runs; by default here (the worker passes its pixel threads). */
  readonly compareContent?: ContentComparer;
}

/** Examines the image, follows its marks to this deployment's records, and decides. */
export async function verifyImage(
  bytes: Uint8Array,
  sql: Sql,
  options: VerifyOptions,
): Promise<VerificationOutcome> {
  const findings = await examineImage(bytes, options);
  const leads = await leadsOf(findings, sql);
  const { byMark } = leads;
  const size =
    byMark?.outputWidth == null || byMark.outputHeight == null
      ? null
      : { width: byMark.outputWidth, height: byMark.outputHeight };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // Only a mark issued here leads to a picture to compare with: unmarked images pay nothing.
  const content = await compareWithIssued(bytes, sha256, findings.markGeometry, byMark, {
    maxPixels: options.maxPixels,
    compare: options.compareContent,
  });
  return {
    findings: relateGeometry(findings, size),
    decision: decideVerdict(findings, leads, content),
    issued: byMark,
    fingerprintDistance: fingerprintDistanceOf(findings, leads),
    content,
    checkedFile: { sha256, size: bytes.length },
  };
}

/**
 * Verifies a video or a recording from a local `path`, read as a stream (an MP4's or MOV's mark from
 * means of its frames): its marks, where they lead, the verdict. Nothing is compared: the
 * content comparison is of pictures.
 */
export async function verifyMediaFile(
  path: string,
  sql: Sql,
  options: ExamineOptions,
): Promise<VerificationOutcome> {
  const [findings, checkedFile] = await Promise.all([
    examineMediaFile(path, options),
    checkedFileAt(path),
  ]);
  const leads = await leadsOf(findings, sql);
  return {
    findings,
    decision: decideVerdict(findings, leads),
    issued: leads.byMark,
    fingerprintDistance: null,
    content: CONTENT_NOT_COMPARED,
    checkedFile,
  };
}

/** The records of this deployment the file's mark and manifest lead to. */
async function leadsOf(
  findings: Findings,
  sql: Sql,
): Promise<{ readonly byMark: IssuedRecord | null; readonly byManifest: IssuedRecord | null }> {
  const payload = findings.invisible.payload;
  const manifestId = findings.c2pa.manifestId;
  const [byMark, byManifest] = await Promise.all([
    payload === null ? null : findIssuedByPayload(sql, payload),
    manifestId === null ? null : findIssuedByManifest(sql, manifestId),
  ]);
  return { byMark, byManifest };
}

async function checkedFileAt(path: string): Promise<CheckedFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { sha256: hash.digest('hex'), size };
}

/** What a verification row keeps in `report`: the findings, the decision, the issuing job. */
export interface StoredReport {
  readonly findings: Findings;
  readonly decision: Decision;
  readonly issuedRequestId: string | null;
  readonly fingerprintDistance: number | null;
  /** Absent in reports stored before content comparisons. */
  readonly content?: ContentFinding;
  /** Absent in reports stored before signed reports: those cannot be signed. */
  readonly checkedFile?: CheckedFile;
}

/** The row's columns for an outcome (`@hallmark/db`'s VerificationResult). */
export function storedResult(outcome: VerificationOutcome): {
  readonly verdict: string;
  readonly markPayload: string | null;
  readonly manifestId: string | null;
  readonly report: StoredReport;
} {
  return {
    verdict: outcome.decision.verdict,
    markPayload: outcome.findings.invisible.payload,
    manifestId: outcome.findings.c2pa.manifestId,
    report: {
      findings: outcome.findings,
      decision: outcome.decision,
      issuedRequestId: outcome.issued?.requestId ?? null,
      fingerprintDistance: outcome.fingerprintDistance,
      content: outcome.content,
      checkedFile: outcome.checkedFile,
    },
  };
}
