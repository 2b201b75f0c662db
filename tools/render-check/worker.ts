/**
 * The render check's worker thread (server/studio/render-check.ts starts it): a jsdom
 * window, the snapshot harness, and one render per message. React, antd and jsdom load
 * here only, never in the server's main thread.
 */
import { parentPort } from 'node:worker_threads';
import { installDom } from './dom.ts';

installDom();
const { renderDocument } = await import('./render.tsx');
// The views of every screen kind load before the worker says it is ready: the first check
// would otherwise pay their loading (several seconds on a busy machine) inside its time-out.
await (await import('../../runtime/screens/ScreenView.tsx')).preloadScreenViews();
// The date and range pickers are fetched on first use too (runtime/screens/lazy-date-pickers.tsx).
await import('antd/es/date-picker/index.js');

parentPort!.on('message', async (message: { id: number; input: Parameters<typeof renderDocument>[0]; timeoutMs: number }) => {
  let outcome: Awaited<ReturnType<typeof renderDocument>>;
  try {
    outcome = await renderDocument(message.input, message.timeoutMs);
  } catch (err) {
    outcome = { ok: false, reason: 'throw', message: (err as Error).message, ms: 0 };
  }
  parentPort!.postMessage({ id: message.id, outcome });
});
parentPort!.postMessage({ ready: true });
