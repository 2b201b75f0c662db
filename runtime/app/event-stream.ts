/**
 * A server-sent event stream read with fetch (EventSource cannot send the Authorization
 * header): events are parsed from the body as they arrive; when the stream ends or fails,
 * it reconnects after a pause growing from 1 s to 15 s, and `onOpen` runs at each
 * connection so the caller reads again what it missed. Loaded lazily by the data provider.
 */
import type { EventHandlers, EventSubscription } from '../services/contract.ts';

export function openEventStream(url: string, access: { getToken(): string | undefined; getLanguage(): string }, handlers: EventHandlers): EventSubscription {
  let closed = false;
  let abort: AbortController | null = null;
  let pause = 1000;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const connect = async () => {
    if (closed) return;
    abort = new AbortController();
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream', 'Accept-Language': access.getLanguage() };
      const token = access.getToken();
      if (token) headers.Authorization = token;
      const res = await fetch(url, { headers, signal: abort.signal, cache: 'no-store' });
      if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
      pause = 1000;
      handlers.onOpen?.();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          dispatch(buffer.slice(0, end), handlers);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Dropped (network, server restart, closed by us): reconnect below unless closed.
    }
    if (closed) return;
    handlers.onDrop?.();
    timer = setTimeout(() => void connect(), pause);
    pause = Math.min(pause * 2, 15_000);
  };
  void connect();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      abort?.abort();
    },
  };
}

function dispatch(block: string, handlers: EventHandlers): void {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (!data.length) return;
  try {
    handlers.onEvent(type, JSON.parse(data.join('\n')));
  } catch {
    // Not JSON: not one of ours.
  }
}
