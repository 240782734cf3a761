import { type HallmarkConfig, type Logger, videoTools } from '@hallmark/config';
import { CONFIG, LOGGER } from '@hallmark/runtime';
import { PixelPool } from '@hallmark/runtime/pixels';
import {
  FfmpegError,
  INVISIBLE_MARK_ALGORITHM,
  type ManifestRequest,
  markVideoFile,
  signManifest,
  signManifestFile,
  type VideoTools,
} from '@hallmark/watermark-core';
import type { Provider } from '@nestjs/common';
import { PermanentJobFailure } from '../watermark/job-failure.ts';
import { createC2paSigner } from './c2pa-signer.ts';
import { SigningIdentity } from './signing-identity.ts';
import { type SigningRequest, TECHNIQUES, type Techniques } from './techniques.ts';

/**
 * The engines of @hallmark/watermark-core this deployment applies. The invisible mark runs in
 * the pixel pool; C2PA signing (native code, no pixel work) runs here, always last.
 */
export const techniquesProvider: Provider = {
  provide: TECHNIQUES,
  inject: [CONFIG, LOGGER, PixelPool],
  useFactory: async (
    config: HallmarkConfig,
    logger: Logger,
    pixels: PixelPool,
  ): Promise<Techniques> => {
    const identity = new SigningIdentity(
      await createC2paSigner(config, logger),
      () => createC2paSigner(config, logger),
      logger,
    );
    identity.rotateOnHangup();
    return {
      invisible: {
        algorithm: INVISIBLE_MARK_ALGORITHM,
        embed: (image, payloadHex, signal) =>
          pixels.embed(
            { bytes: image.bytes, payloadHex, maxPixels: config.MAX_IMAGE_PIXELS },
            signal,
          ),
        markVideo: (inputPath, outputPath, payloadHex, signal) =>
          markVideoWithFfmpeg(inputPath, outputPath, payloadHex, {
            signal,
            tools: videoTools(config),
          }),
      },
      c2pa: {
        notAfter: () => new Date(identity.current().identity.notAfter),
        begin: () => {
          const signer = identity.current();
          return {
            sign: async (image, request) => {
              const signed = await signManifest(image.bytes, manifestRequest(request), signer);
              return {
                bytes: signed.bytes,
                manifestStore: signed.manifestStore,
                manifestId: signed.manifestId,
              };
            },
            signFile: async (inputPath, outputPath, request) => {
              const signed = await signManifestFile(
                inputPath,
                outputPath,
                manifestRequest(request),
                signer,
              );
              return { manifestStore: signed.manifestStore, manifestId: signed.manifestId };
            },
          };
        },
      },
    };
  },
};

/** The job's facts as watermark-core's manifest request (absent fields left out). */
function manifestRequest(request: SigningRequest): ManifestRequest {
  return {
    fileId: request.fileId,
    requestId: request.requestId,
    ...(request.fingerprint === undefined ? {} : { fingerprint: request.fingerprint }),
    ...(request.data === undefined ? {} : { data: request.data }),
    ...(request.softBinding === undefined ? {} : { softBinding: request.softBinding }),
  };
}

/**
 * The video mark, its failures in the job's terms: no ffmpeg on this worker, or an ffmpeg that
 * cannot encode the marked copy (a build without libx264 or libx265), is a technique it cannot
 * apply; ffmpeg refusing the file (no video stream, a broken one) is the file's fault.
 */
async function markVideoWithFfmpeg(
  inputPath: string,
  outputPath: string,
  payloadHex: string,
  options: { readonly signal: AbortSignal; readonly tools: VideoTools },
): Promise<{ width: number; height: number }> {
  const { signal } = options;
  try {
    const marked = await markVideoFile(inputPath, outputPath, payloadHex, options);
    return { width: marked.width, height: marked.height };
  } catch (error) {
    if (!(error instanceof FfmpegError) || signal.aborted) throw error;
    if ((error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new PermanentJobFailure(
        'technique_unavailable',
        'This deployment has no ffmpeg for the video mark; ask for c2pa alone, or tell its operator.',
      );
    }
    if (error.stage === 'encode') {
      throw new PermanentJobFailure(
        'technique_unavailable',
        "This deployment's ffmpeg could not encode the marked video (H.264, or 10-bit HEVC for an HDR clip); ask for c2pa alone, or tell its operator.",
      );
    }
    throw new PermanentJobFailure(
      'invalid_image',
      'The video could not be decoded for the mark (no video stream, or a broken one).',
    );
  }
}
