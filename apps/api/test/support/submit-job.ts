import { type HallmarkClient, uploadFile, type WatermarkOptions } from '@hallmark/sdk';

/** A JPEG uploaded as a client does (upload link, PUT): its file id. */
export async function uploadJpeg(
  client: HallmarkClient,
  bytes: Uint8Array,
  fileName = 'photo.jpg',
): Promise<string> {
  const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName });
  await uploadFile(link.uploadLink, bytes, 'image/jpeg');
  return link.fileId;
}

/** A JPEG uploaded and a job asked for it, as a client does (upload link, PUT, POST /watermark). */
export async function submitJob(
  client: HallmarkClient,
  bytes: Uint8Array,
  options: WatermarkOptions,
  fileName = 'photo.jpg',
) {
  const fileId = await uploadJpeg(client, bytes, fileName);
  return client.createWatermarkJob({ fileId, options });
}
