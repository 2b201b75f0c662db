/**
 * The services contract's data provider over the HTTP client: the only module that turns
 * what a renderer asks for (a document's endpoint reference, a resource operation, a
 * dictionary) into a method and a URL (data-locator.ts), and the shell's named calls into
 * theirs (runtime/protocol/calls.ts). The locator comes with the
 * screens (default-features.ts installs it): the login page, which creates the services,
 * does not load the schema language's route helpers.
 */
import type { HttpClient } from '../http/client.ts';
import { callRoute } from '../protocol/calls.ts';
import type { DataProvider, DataRequest } from '../services/contract.ts';

type Locate = typeof import('./data-locator.ts').locate;
let installed: Locate | null = null;

export function installDataLocator(locate: Locate): void {
  installed = locate;
}

function locate(request: Pick<DataRequest, 'registry' | 'source'>) {
  if (!installed) throw new Error('the data provider was asked before the screens loaded (registerDefaultFeatures)');
  return installed(request);
}

/** What an event stream needs besides the client: where, and the caller's token and language. */
export interface StreamAccess {
  baseUrl: string;
  getToken(): string | undefined;
  getLanguage(): string;
}

export function createDataProvider(http: HttpClient, stream?: StreamAccess): DataProvider {
  const send = <T>(request: DataRequest) => {
    const at = locate(request);
    if (!at) return Promise.reject(new Error('data source cannot be resolved (a parameter is missing)'));
    return http.request<T>({ method: at.method, url: at.url, query: request.params, body: request.body, quiet: request.quiet, timeoutMs: request.timeoutMs });
  };
  return {
    key(request) {
      const at = locate(request);
      return at ? `${at.method} ${at.url}` : null;
    },
    query: async <T>(request: DataRequest) => (await send<T>(request)).data as T,
    mutate: send,
    call: (name, options = {}) => http.request({ ...callRoute(name), query: options.params, body: options.body, quiet: options.quiet, asFile: options.asFile, timeoutMs: options.timeoutMs }),
    ...(stream
      ? {
          subscribe(name, handlers) {
            // The reader is a chunk of its own: only screens that stream load it (bundle budgets).
            let closed = false;
            let sub: { close(): void } | null = null;
            void import('./event-stream.ts').then((m) => {
              if (!closed) sub = m.openEventStream(`${stream.baseUrl}${callRoute(name).url}`, stream, handlers);
            });
            return {
              close() {
                closed = true;
                sub?.close();
              },
            };
          },
        }
      : {}),
  };
}
