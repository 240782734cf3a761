import type { WatermarkMetadata } from '@hallmark/schemas';

/** What the pipeline knows about the image it works on. */
export interface ImageInput {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/**
 * A marked image, the perceptual fingerprint of its picture and its content reference (the small
 * JPEG verification compares copies with).
 */
export interface MarkedImage {
  readonly bytes: Uint8Array;
  readonly fingerprint: string;
  readonly contentReference: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** Embeds the invisible 64-bit mark; pixel work, run off the event loop. */
export interface InvisibleTechnique {
  readonly algorithm: string;
  embed(image: ImageInput, payloadHex: string, signal: AbortSignal): Promise<MarkedImage>;
  /**
   * Marks every frame of the MP4 or MOV at `inputPath` into the new file `outputPath`, of the
   * same container (ffmpeg child processes do the decoding and encoding).
   */
  markVideo(
    inputPath: string,
    outputPath: string,
    payloadHex: string,
    signal: AbortSignal,
  ): Promise<{ readonly width: number; readonly height: number }>;
}

export interface SigningRequest {
  readonly fileId: string;
  readonly requestId: string;
  readonly data: WatermarkMetadata | undefined;
  /** The perceptual fingerprint of the marked picture, recorded in the manifest. */
  readonly fingerprint: string | undefined;
  /** Present when the invisible mark was embedded: the manifest then binds to it. */
  readonly softBinding: { readonly algorithm: string; readonly payloadHex: string } | undefined;
}

/** A signed image, and its manifest store alone (kept as a `.c2pa` sidecar). */
export interface SignedImage {
  readonly bytes: Uint8Array;
  readonly manifestStore: Uint8Array;
  readonly manifestId: string;
}

/**
 * C2PA signing. A job takes the signing identity current when it starts (`begin`) and signs with
 * it at the end, so a rotation in between does not change who signs it.
 */
export interface C2paTechnique {
  begin(): C2paSigning;
  /** When the certificate of the identity now signing expires. */
  notAfter(): Date;
}

/** A signed file written to a local path, and its manifest store alone. */
export interface SignedFile {
  readonly manifestStore: Uint8Array;
  readonly manifestId: string;
}

/** Signs a C2PA manifest into the image. Always the last step: a re-encode would drop it. */
export interface C2paSigning {
  sign(image: ImageInput, request: SigningRequest): Promise<SignedImage>;
  /**
   * Signs the file at `inputPath` into the new file `outputPath`, reading both as streams: how a
   * video or a recording is signed without holding it whole.
   */
  signFile(inputPath: string, outputPath: string, request: SigningRequest): Promise<SignedFile>;
}

/** The techniques this deployment can apply; a missing one fails jobs that ask for it. */
export interface Techniques {
  readonly invisible?: InvisibleTechnique;
  readonly c2pa?: C2paTechnique;
}

export const TECHNIQUES = Symbol('Techniques');
