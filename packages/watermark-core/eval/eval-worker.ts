// Worker thread of the evaluation: runs the tasks it is sent, one at a time.
import { parentPort } from 'node:worker_threads';
import { type EvalTask, runTask } from './evaluate.ts';

parentPort?.on('message', (task: EvalTask) => {
  runTask(task).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (error: unknown) =>
      parentPort?.postMessage({ ok: false, error: String((error as Error).stack ?? error) }),
  );
});
