import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.ts';

/** The path and query of an absolute link, as `app.inject` wants it. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

export async function claimUploadLink(
  testApp: TestApp,
  bearer: string,
  contentType = 'image/jpeg',
): Promise<{ fileId: string; uploadLink: string }> {
  const res = await testApp.app.inject({
    method: 'POST',
    url: '/claim/file-upload-link',
    headers: { authorization: bearer },
    payload: { contentType, fileName: 'photo.jpg' },
  });
  if (res.statusCode !== 201) throw new Error(`upload link: ${res.statusCode} ${res.body}`);
  return res.json();
}

export function put(
  testApp: TestApp,
  uploadLink: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: 'PUT',
    url: pathOf(uploadLink),
    headers: { 'content-type': contentType },
    payload: Buffer.from(bytes),
  });
}

export function requestWatermark(
  testApp: TestApp,
  bearer: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: 'POST',
    url: '/watermark',
    headers: { authorization: bearer, ...headers },
    payload: body as Record<string, unknown>,
  });
}
