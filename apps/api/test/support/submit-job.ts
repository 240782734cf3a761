import { type HallmarkClient, uploadFile, type WatermarkOptions } from '@hallmark/sdk';

/** A JPEG uploaded and a job asked for it, as a client does (upload link, PUT, POST /watermark). */
export async function submitJob(
  client: HallmarkClient,
  bytes: Uint8Array,
  options: WatermarkOptions,
  fileName = 'photo.jpg',
) {
  const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName });
  await uploadFile(link.uploadLink, bytes, 'image/jpeg');
  return client.createWatermarkJob({ fileId: link.fileId, options });
}
