import { createContext } from 'react';

/**
 * The id of the screen its route shows: only that screen's list keeps its state in the
 * address (list-url.ts); lists embedded in it or opened over it keep theirs in memory.
 * A file of its own so that the routed frame does not load the list code to provide it.
 */
export const RoutedScreenIdContext = createContext<string | null>(null);
