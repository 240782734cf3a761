import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CONFIG, LOGGER } from '@hallmark/runtime';
import { PixelPool } from '@hallmark/runtime/pixels';
import {
  INVISIBLE_MARK_ALGORITHM,
  type ManifestRequest,
  signManifest,
  signManifestFile,
} from '@hallmark/watermark-core';
import type { Provider } from '@nestjs/common';
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
