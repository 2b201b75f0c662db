/**
 * The «模拟» label (issue 26): whatever the simulator plays says so wherever it is shown,
 * so demo data is never taken for a real device's.
 */
import { Alert, Tag } from 'antd';
import type { Texts } from './texts.ts';

export function SimulatedTag({ texts }: { texts: Texts }) {
  return (
    <Tag color="purple" className="eqc-simulated" data-testid="simulated">
      {texts.simulated}
    </Tag>
  );
}

/** Above a view that shows any simulated device or series. */
export function SimulatedBanner({ texts }: { texts: Texts }) {
  return <Alert className="eqc-banner" type="info" showIcon data-testid="simulated-banner" title={texts.simulatedBanner} />;
}
