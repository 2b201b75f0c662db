/**
 * The import reader's worker thread (import-reader.ts starts it): one file read per
 * message, under the limits of readRows, off the server's event loop. The rows go back as
 * cells; a refusal about the file goes back as its reason and parameters.
 */
import { parentPort } from 'node:worker_threads';
import { ImportFileError, readRows } from './import-file.ts';

export type ReaderReply =
  | { id: number; rows: unknown[][] }
  | { id: number; refusal: { reason: ImportFileError['reason']; params: Record<string, string | number> } }
  | { id: number; failure: string };

parentPort!.on('message', async (m: { id: number; bytes: Uint8Array }) => {
  let reply: ReaderReply;
  try {
    reply = { id: m.id, rows: await readRows(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength)) };
  } catch (e) {
    reply = e instanceof ImportFileError ? { id: m.id, refusal: { reason: e.reason, params: e.params } } : { id: m.id, failure: (e as Error).message };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true });
