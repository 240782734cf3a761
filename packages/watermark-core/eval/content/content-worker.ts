// Worker thread of the content evaluation: runs the photo tasks it is sent, one at a time.
import { parentPort } from 'node:worker_threads';
import { type ContentTask, runContentTask } from './content-task.ts';

parentPort?.on('message', (task: ContentTask) => {
  runContentTask(task).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (error: unknown) =>
      parentPort?.postMessage({ ok: false, error: String((error as Error).stack ?? error) }),
  );
});
