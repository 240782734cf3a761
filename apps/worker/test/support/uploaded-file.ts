import { randomBytes, randomUUID } from 'node:crypto';
import type { PrismaClient } from '@hallmark/db';

/** A new API key and a file it uploaded (`uploadedAt`, by default now): what a job row needs. */
export async function uploadedFile(
  client: PrismaClient,
  uploadedAt: Date = new Date(),
): Promise<{ readonly apiKeyId: string; readonly fileId: string; readonly storageKey: string }> {
  const key = await client.apiKey.create({
    data: { name: 'worker-test', prefix: randomBytes(4).toString('hex'), hash: randomUUID() },
  });
  const file = await client.file.create({
    data: {
      apiKeyId: key.id,
      fileName: 'photo.jpg',
      contentType: 'image/jpeg',
      status: 'uploaded',
      storageKey: `uploads/${randomUUID()}/photo.jpg`,
      sizeBytes: 5,
      uploadedAt,
    },
  });
  return { apiKeyId: key.id, fileId: file.id, storageKey: file.storageKey };
}
