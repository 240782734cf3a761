import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { UnixSeconds } from './common/unix-seconds.ts';
import { IpfsRecord } from './ipfs-record.ts';
import { JOB_ERROR_CODES } from './job-error-codes.ts';
import { Nft } from './nft.ts';

/**
 * Four states, not only `pending` and `success`: without `processing` and `failed` a client could
 * not tell a stuck job from a queued one, nor stop polling a job that will never succeed.
 */
export const WatermarkJobStatus = z.enum(['pending', 'processing', 'success', 'failed']).meta({
  id: 'WatermarkJobStatus',
  description:
    '`pending` (queued), `processing` (a worker is on it, or it waits between two attempts), `success` and `failed` (see `error`). `success` and `failed` are final: stop polling.',
});
export type WatermarkJobStatus = z.infer<typeof WatermarkJobStatus>;

export const WatermarkJobError = z
  .strictObject({
    code: z
      .string()
      .min(1)
      .max(100)
      .meta({
        description: `Stable machine-readable reason: ${Object.entries(JOB_ERROR_CODES)
          .map(([code, meaning]) => `\`${code}\` (${meaning})`)
          .join('; ')}`,
        examples: ['invalid_image'],
      }),
    message: z.string().max(2000).meta({ description: 'Human-readable explanation.' }),
  })
  .meta({ id: 'WatermarkJobError', description: 'Why a job failed (Hallmark extension).' });
export type WatermarkJobError = z.infer<typeof WatermarkJobError>;

/** Answer of `POST /watermark`: the job exists and is queued. */
export const WatermarkAccepted = z
  .strictObject({
    status: z.literal('pending'),
    requestId: z.uuid().meta({ description: 'Poll `GET /watermark/{requestId}` with it.' }),
    fileId: z.uuid(),
  })
  .meta({
    id: 'WatermarkAccepted',
    description: 'The job was queued; poll it with `requestId`.',
    examples: [
      {
        status: 'pending',
        requestId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
        fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
      },
    ],
  });
export type WatermarkAccepted = z.infer<typeof WatermarkAccepted>;

/**
 * The job, as answered by `GET /watermark/{requestId}`. Kept as one flat object (not a union
 * per status), as docs/flow.md documents it; the refinement below enforces the "present when"
 * rules at runtime so neither the API nor the worker can send a half-finished job.
 */
export const WatermarkJob = z
  .strictObject({
    status: WatermarkJobStatus,
    requestId: z.uuid(),
    fileId: z.uuid(),
    watermarkedUrl: HttpUrl.optional().meta({
      description:
        'Present when `status` is `success`. Signed download URL on the storage address, usable until `expiredAt`; no bearer token needed.',
    }),
    expiredAt: UnixSeconds.optional().meta({
      description:
        'Present when `status` is `success`. Unix seconds after which `watermarkedUrl` stops working.',
    }),
    // Registered components lose their $ref when a field adds its own description, so these
    // fields are described in the job's description instead.
    error: WatermarkJobError.optional(),
    nft: Nft.optional(),
    ipfs: IpfsRecord.optional(),
  })
  .superRefine((job, ctx) => {
    const succeeded = job.status === 'success';
    for (const key of ['watermarkedUrl', 'expiredAt'] as const) {
      if (succeeded !== (job[key] !== undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: succeeded ? `${key} is required on success` : `${key} is only sent on success`,
          input: job[key],
        });
      }
    }
    const failed = job.status === 'failed';
    if (failed !== (job.error !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['error'],
        message: failed ? 'error is required when failed' : 'error is only sent when failed',
        input: job.error,
      });
    }
  })
  .meta({
    id: 'WatermarkJob',
    description:
      'The state of a watermarking job. `watermarkedUrl` and `expiredAt` are present exactly when `status` is `success`, `error` exactly when it is `failed`; `nft` (with `mintNft`) and `ipfs` (with `storeIpfs`) appear once those records exist.',
    examples: [
      {
        status: 'success',
        requestId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
        fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
        watermarkedUrl:
          'https://storage.example.com/watermarked/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d?expires=1767225600&signature=7a4c2f9e',
        expiredAt: 1767225600,
      },
    ],
  });
export type WatermarkJob = z.infer<typeof WatermarkJob>;
