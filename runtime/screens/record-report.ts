/**
 * How a form or a detail tells the frame around it which record it shows, so that the
 * frame's heading, its tab, its breadcrumb and the browser title can name the record
 * (screen-title.ts). A view outside any frame reports to nobody.
 */
import { createContext, useContext, useEffect } from 'react';

export const RecordReportContext = createContext<((record: unknown) => void) | null>(null);

/** Reports `record` (null while there is none) to the nearest frame. */
export function useReportRecord(record: unknown): void {
  const report = useContext(RecordReportContext);
  useEffect(() => {
    report?.(record ?? null);
  }, [report, record]);
}
