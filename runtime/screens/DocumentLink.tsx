import type { ReactNode } from 'react';

/** A link to a page the server serves outside the console (NavigateTarget.document): a new tab, no opener. */
export function DocumentLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
