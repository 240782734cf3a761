import { createPrismaClient, type PrismaClient } from '@hallmark/db';
import { createTestEnv } from '@hallmark/runtime/testing';
import { QUEUES } from '@hallmark/schemas';
import { Queue } from 'bullmq';

/** What a worker process test runs against: its own database and Redis prefix, and the queue. */
export interface WatermarkWorld {
  readonly testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  readonly prisma: PrismaClient;
  /** The watermark queue, under the test's Redis prefix. */
  readonly queue: Queue;
  dispose(): Promise<void>;
}

export async function watermarkWorld(name: string): Promise<WatermarkWorld> {
  const testEnv = await createTestEnv(name);
  const prisma = createPrismaClient(testEnv.config.DATABASE_URL);
  const queue = new Queue(QUEUES.watermark, {
    connection: { url: testEnv.config.REDIS_URL },
    prefix: testEnv.config.REDIS_PREFIX,
  });
  return {
    testEnv,
    prisma,
    queue,
    dispose: async () => {
      await queue.close();
      await prisma.$disconnect();
      await testEnv.dispose();
    },
  };
}
