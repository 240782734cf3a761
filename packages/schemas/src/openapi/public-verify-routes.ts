import { problemTypes } from '../problem-types.ts';
import { PublicVerification, PublicVerifySettings } from '../public-verification.ts';
import { defineRoute } from './define-route.ts';
import {
  anonymousRateLimitResponse,
  type ProblemCase,
  problemResponses,
} from './problem-responses.ts';
import { noAuth } from './security.ts';

const tags = ['Public verification'];

/** An image as the request body, the one shape every in-request verification takes. */
export const imageRequestBody = {
  required: true,
  content: { 'image/*': { schema: { type: 'string', format: 'binary' } as never } },
};

/** Why an image sent in the request is refused before or while it is read. */
export function imageRefusals(pixelLimit: string): ProblemCase[] {
  return [
    {
      problem: problemTypes.unsupportedMediaType,
      when: 'the body is not an image by its magic bytes, or a kind that cannot be verified.',
    },
    { problem: problemTypes.payloadTooLarge, when: 'the body is over `VERIFY_SYNC_MAX_BYTES`.' },
    {
      problem: problemTypes.imageUnreadable,
      when: `the image is corrupt, truncated, or has more pixels than ${pixelLimit} (told by its header, before any decoding).`,
    },
    {
      problem: problemTypes.serviceUnavailable,
      when: 'every verification place of the API process is taken, or the verification ran out of time; see `Retry-After`.',
    },
  ];
}

export function publicVerifyRoutes() {
  const getPublicVerifySettings = defineRoute({
    method: 'get',
    path: '/public/verify',
    operationId: 'getPublicVerifySettings',
    tags,
    summary: 'Whether anyone may verify an image here, and within which bounds',
    description:
      'Answers whatever `PUBLIC_VERIFY` says, so a page can offer the upload or say it is off. Limited per address like every public operation.',
    security: noAuth,
    responses: {
      200: {
        description: 'The settings.',
        content: { 'application/json': { schema: PublicVerifySettings } },
      },
      ...anonymousRateLimitResponse,
    },
  });

  const verifyImagePublicly = defineRoute({
    method: 'post',
    path: '/public/verify',
    operationId: 'verifyImagePublicly',
    tags,
    summary: 'Verify an image without an API key (the public verify page)',
    description:
      "Off unless the deployment sets `PUBLIC_VERIFY=true`. The image is the body (its image `Content-Type`, at most `VERIFY_SYNC_MAX_BYTES`, at most `VERIFY_ANONYMOUS_MAX_PIXELS` pixels); it is verified at once and never stored. The answer is the report as anyone may see it: the verdict, the marks, the content comparison and what the deployment published, without the id of any key, job or file. The verification is recorded (origin `public`, no key) for the operators' console. Limited per address like the public Soft Binding API.",
    security: noAuth,
    request: { body: imageRequestBody },
    responses: {
      200: {
        description: 'The finished verification.',
        content: { 'application/json': { schema: PublicVerification } },
      },
      ...problemResponses([
        {
          problem: problemTypes.publicVerifyOff,
          when: 'the deployment has not enabled public verification (`PUBLIC_VERIFY`).',
        },
        ...imageRefusals('`VERIFY_ANONYMOUS_MAX_PIXELS`'),
        { problem: problemTypes.rateLimited, when: 'too many requests from this address.' },
      ]),
    },
  });
  return { getPublicVerifySettings, verifyImagePublicly };
}
