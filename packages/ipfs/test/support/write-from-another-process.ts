// Run as its own Node process by the multi-process test: opens the embedded node on the folder
// given as the first argument, stores a JSON document and a directory (its file from the second
// argument, a path to its bytes), and prints their CIDs as one JSON line.
import { readFile } from 'node:fs/promises';
import { EmbeddedIpfs } from '../../src/index.ts';

const [directory, filePath] = process.argv.slice(2);
if (directory === undefined || filePath === undefined) throw new Error('usage: <dir> <file>');
const store = await EmbeddedIpfs.open(directory);
try {
  const json = await store.addJson({ writtenBy: 'child', pid: process.pid });
  const { cid } = await store.addDirectory([
    { name: 'shared.jpg', bytes: await readFile(filePath) },
  ]);
  process.stdout.write(`${JSON.stringify({ json: json.toString(), dir: cid.toString() })}\n`);
} finally {
  await store.close();
}
